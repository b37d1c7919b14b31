package bots

import "slices"

// gnode is one action in a guided search's tree; nodes live in one slice
// and link by index (0, the root, being nobody's child nor sibling).
type gnode struct {
	child, sibling int32
	visits         uint32  // simulations through it, those waiting for their leaf included
	value          float32 // sum of the values of the seat that chose its action
	raw            float32 // its own evaluation, for its seat to play
	prior          float32 // its parent's prior of its action
	action         int16
	seat           int8  // its seat to play, once asked for
	state          uint8 // fresh, waiting or expanded
}

const (
	fresh    = iota // never reached
	waiting         // its evaluation is out
	expanded        // evaluated: it has priors and a value
)

// GuidedNodeBytes is unsafe.Sizeof(gnode{}), kept equal by a test: a
// search grows by at most one node per legal action of each leaf.
const GuidedNodeBytes = 28

// GuidedBytes bounds the memory of one guided search of sims simulations in
// a game of actions actions: per simulation, a node for each action of the
// leaf it evaluates (twice over: slices grow by doubling), its halving count
// and its share of the paths; per search, the root's noise and scores.
func GuidedBytes(sims, actions int) int64 {
	return int64(sims+1)*int64(2*actions*GuidedNodeBytes+4+3*8) + int64(2*actions*8) + 16<<10
}

// gtree is a guided search's storage (mctx's Tree): its nodes, and the one
// way values reach them (visit, then backUp). It knows nothing of games or
// of how children are chosen.
type gtree struct{ nodes []gnode }

// reset leaves the root alone, fresh.
func (t *gtree) reset() { t.nodes = append(t.nodes[:0], gnode{}) }

// addChild adds a child of at for action with prior; it comes first in at's
// children.
func (t *gtree) addChild(at int32, action int, prior float32) {
	i := int32(len(t.nodes))
	t.nodes = append(t.nodes, gnode{sibling: t.nodes[at].child, action: int16(action), prior: prior})
	t.nodes[at].child = i
}

// addChildren gives at, which has no children, one per action: they are
// the last len(actions) nodes, in child order from the last.
func (t *gtree) addChildren(at int32, actions []int) {
	first := int32(len(t.nodes))
	t.nodes = slices.Grow(t.nodes, len(actions))
	for k, a := range actions { // each the next one's sibling, the first at's old first child
		t.nodes = append(t.nodes, gnode{sibling: first + int32(k) - 1, action: int16(a)})
	}
	if len(actions) > 0 {
		t.nodes[first].sibling = t.nodes[at].child
		t.nodes[at].child = first + int32(len(actions)) - 1
	}
}

// children are the n children addChildren gave at, last node first as in
// child order (a leaf's children until it is expanded).
func (t *gtree) children(at int32, n int) []gnode {
	last := t.nodes[at].child
	return t.nodes[last+1-int32(n) : last+1]
}

// setPriors gives at's n children (addChildren's) their share of priors (a
// row over the whole action space), normalized over them; summed in child
// order.
func (t *gtree) setPriors(at int32, n int, priors []float32) {
	kids, sum := t.children(at, n), float64(0)
	for i := n - 1; i >= 0; i-- {
		sum += float64(priors[kids[i].action])
	}
	for i := range kids {
		kids[i].prior = float32(float64(priors[kids[i].action]) / sum)
	}
}

// uniformPriors gives at's n children (addChildren's) equal priors.
func (t *gtree) uniformPriors(at int32, n int) {
	for i, kids := 0, t.children(at, n); i < n; i++ {
		kids[i].prior = 1 / float32(n)
	}
}

// q is child c's mean value for the seat that chose it.
func (t *gtree) q(c int32) float64 {
	n := &t.nodes[c]
	return float64(n.value) / float64(n.visits)
}

// nodeValue is at's mean value for its seat to play: its evaluation and
// every value backed up through it.
func (t *gtree) nodeValue(at int32) float64 {
	sum, visits := float64(t.nodes[at].raw), 1.0
	for c := t.nodes[at].child; c != 0; c = t.nodes[c].sibling {
		sum += float64(t.nodes[c].value)
		visits += float64(t.nodes[c].visits)
	}
	return sum / visits
}

// visit counts a simulation begun along path; with virtualLoss, each node
// also counts a loss for its choosing seat until backUp, which steers the
// next descents elsewhere while its leaf is out.
func (t *gtree) visit(path []step, virtualLoss bool) {
	for _, s := range path {
		n := &t.nodes[s.node]
		n.visits++
		if virtualLoss && s.seat >= 0 {
			n.value--
		}
	}
}

// backUp ends a simulation visit began along path: each node gives back
// the virtual loss it took, if it took one, and is credited its choosing
// seat's value.
func (t *gtree) backUp(path []step, values [MaxSeats]float32, virtualLoss bool) {
	for _, s := range path {
		if s.seat < 0 {
			continue
		}
		n := &t.nodes[s.node]
		if virtualLoss {
			n.value++
		}
		n.value += values[s.seat]
	}
}
