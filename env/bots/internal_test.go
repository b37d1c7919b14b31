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
