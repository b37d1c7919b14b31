package bots

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
)

// smallTree is a root evaluated at 0.2 with three children: A visited
// twice for a mean of 0.5 (prior 0.5), B once for −0.5 (prior 0.3), C never
// (prior 0.2). The root's value is (0.2 + 1 − 0.5) / (1 + 3) = 0.175.
func smallTree() (t *gtree, a, b, c int32) {
	t = &gtree{}
	t.reset()
	t.nodes[0].raw = 0.2
	t.addChild(0, 2, 0.2)
	t.addChild(0, 1, 0.3)
	t.addChild(0, 0, 0.5)
	a, b, c = 3, 2, 1 // nodes in the order added
	t.nodes[a].visits, t.nodes[a].value = 2, 1
	t.nodes[b].visits, t.nodes[b].value = 1, -0.5
	return t, a, b, c
}

// unvisitedTree is a root evaluated at 0.7 with two children (nodes 2 and
// 1, in child order), neither visited.
func unvisitedTree() *gtree {
	t := &gtree{}
	t.reset()
	t.nodes[0].raw = 0.7
	t.addChild(0, 0, 0.5)
	t.addChild(0, 1, 0.5)
	return t
}

func TestByParentAndSiblingsRescalesOverTheParentAndItsVisitedKids(t *testing.T) {
	tr, a, b, c := smallTree()
	assert.InDelta(t, 0.175, tr.nodeValue(0), 1e-7)
	// min −0.5 (B), max 0.5 (A); C, unvisited, is 0.
	assert.InDeltaSlice(t, []float64{1, 0, 0}, byParentAndSiblings(tr, 0, []int32{a, b, c}, math.Inf(1), 1, nil), 1e-7)
	// B illegal in this deal: the range is the parent's 0.175 to A's 0.5.
	assert.InDeltaSlice(t, []float64{1, 0}, byParentAndSiblings(tr, 0, []int32{a, c}, math.Inf(1), 0.7, nil), 1e-7)
}

// With first-play urgency C, unvisited, counts as the root's 0.175 less
// fpu·√(0.8), A's and B's share of the priors, rescaled over [−0.5, 0.5]
// and floored at 0.
func TestByParentAndSiblingsGivesUnvisitedKidsFirstPlayUrgency(t *testing.T) {
	tr, a, b, c := smallTree()
	kids := []int32{a, b, c}
	assert.InDeltaSlice(t, []float64{1, 0, 0.675}, byParentAndSiblings(tr, 0, kids, 0, 1, nil), 1e-7, "the parent's value")
	assert.InDeltaSlice(t, []float64{1, 0, 0.675 - 0.5*math.Sqrt(0.8)}, byParentAndSiblings(tr, 0, kids, 0.5, 1, nil), 1e-7)
	assert.InDeltaSlice(t, []float64{1, 0, 0}, byParentAndSiblings(tr, 0, kids, 2, 1, nil), 1e-7, "floored at the minimum")

	fresh := unvisitedTree()
	assert.Equal(t, []float64{0, 0}, byParentAndSiblings(fresh, 0, []int32{2, 1}, 0, 1, nil),
		"no kid visited: every kid is the node's own value, a range of zero width")
}

func TestCompletedByMixValueFillsUnvisitedKidsWithTheMixedValue(t *testing.T) {
	tr, a, b, c := smallTree()
	// mixed = (0.2 + 3 × (0.5·0.5 + 0.3·(−0.5)) / 0.8) / 4 = 0.14375 for C;
	// rescaled over [−0.5, 0.5] and scaled by (50 + 2) × 0.1.
	got := completedByMixValue(tr, 0, []int32{a, b, c}, 50, 0.1, nil)
	assert.InDeltaSlice(t, []float64{5.2, 0, 5.2 * 0.64375}, got, 1e-6)

	fresh := unvisitedTree()
	assert.Equal(t, []float64{0, 0}, completedByMixValue(fresh, 0, []int32{2, 1}, 50, 1, nil),
		"no kid visited: every kid is the node's own value, a range of zero width")
}

func TestBackUpGivesBackTheVirtualLossVisitTook(t *testing.T) {
	tr, a, _, _ := smallTree()
	path := []step{{node: 0, seat: -1}, {node: a, seat: 1}}
	before := tr.nodes[a]
	tr.visit(path, true)
	assert.Equal(t, before.value-1, tr.nodes[a].value, "a loss for the seat that chose it")
	tr.backUp(path, [MaxSeats]float32{0.25, 0.75}, true)
	assert.Equal(t, before.visits+1, tr.nodes[a].visits)
	assert.Equal(t, before.value+0.75, tr.nodes[a].value, "the chooser's value, the loss given back")
	assert.Equal(t, uint32(1), tr.nodes[0].visits, "the root counts the visit, and no value")
}
