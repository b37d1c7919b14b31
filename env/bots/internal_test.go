package bots

import (
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
)

func TestTreeBytesCountsTheNodes(t *testing.T) {
	assert.Equal(t, nodeBytes, int(unsafe.Sizeof(node{})))
	assert.Equal(t, stepBytes, int(unsafe.Sizeof(step{})))
}

func TestGuidedNodeBytesIsTheNodesSize(t *testing.T) {
	assert.Equal(t, GuidedNodeBytes, int(unsafe.Sizeof(gnode{})))
}

// The halving schedule is mctx's: for 4 actions and 8 simulations, each
// of the 4 once, then the best 2 twice more.
func TestHalvingIsMctxs(t *testing.T) {
	assert.Equal(t, []int32{0, 0, 0, 0, 1, 1, 2, 2}, halving(nil, 4, 8))
	assert.Equal(t, []int32{0, 1, 2}, halving(nil, 1, 3))
	assert.Equal(t, []int32{0, 0, 1, 1, 2, 2}, halving(nil, 2, 6))
}
