package bots

import (
	"math"

	"github.com/splendor-rl/splendor/internal/bitset"
)

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

// addChild adds a child of at for action with prior.
func (m *guided[S, G]) addChild(at int32, action int, prior float32) {
	i := int32(len(m.nodes))
	m.nodes = append(m.nodes, gnode{sibling: m.nodes[at].child, action: int16(action), prior: prior})
	m.nodes[at].child = i
}

// setPriors gives at's children their share of priors (a row over the
// whole action space), normalized over them.
func (m *guided[S, G]) setPriors(at int32, priors []float32) {
	sum := float64(0)
	for c := m.nodes[at].child; c != 0; c = m.nodes[c].sibling {
		sum += float64(priors[m.nodes[c].action])
	}
	for c := m.nodes[at].child; c != 0; c = m.nodes[c].sibling {
		m.nodes[c].prior = float32(float64(priors[m.nodes[c].action]) / sum)
	}
}

// uniformPriors gives at's children equal priors.
func (m *guided[S, G]) uniformPriors(at int32) {
	children := float32(0)
	for c := m.nodes[at].child; c != 0; c = m.nodes[c].sibling {
		children++
	}
	for c := m.nodes[at].child; c != 0; c = m.nodes[c].sibling {
		m.nodes[c].prior = 1 / children
	}
}

// readLegal reads the legal actions of s, as a list and as a set.
func (m *guided[S, G]) readLegal(s *S) {
	m.legalBits = G(s).LegalSet()
	m.legal = AppendSet(m.legal[:0], m.legalBits[:])
}

// markLegal gives node at a child for each action legal in this deal
// (readLegal) that had none (legal in this deal, not in the one it was
// evaluated in: a card the redeal put on the market), with the mean prior
// of its children.
func (m *guided[S, G]) markLegal(at int32) {
	m.seenBits = Actions{}
	children := 0
	for c := m.nodes[at].child; c != 0; c = m.nodes[c].sibling {
		bitset.Add(m.seenBits[:], int(m.nodes[c].action))
		children++
	}
	for _, a := range m.legal {
		if !bitset.Has(m.seenBits[:], a) {
			m.addChild(at, a, 1/float32(children))
		}
	}
}

// legalChild says whether child c's action is legal in this deal.
func (m *guided[S, G]) legalChild(c int32) bool {
	return bitset.Has(m.legalBits[:], int(m.nodes[c].action))
}

// q is child c's mean value for the seat that chose it.
func (m *guided[S, G]) q(c int32) float64 {
	n := &m.nodes[c]
	return float64(n.value) / float64(n.visits)
}

// nodeValue is at's mean value for its seat to play: its evaluation and
// every value backed up through it.
func (m *guided[S, G]) nodeValue(at int32) float64 {
	sum, visits := float64(m.nodes[at].raw), 1.0
	for c := m.nodes[at].child; c != 0; c = m.nodes[c].sibling {
		sum += float64(m.nodes[c].value)
		visits += float64(m.nodes[c].visits)
	}
	return sum / visits
}

// choose is the child of at to walk to, among those legal in this deal.
func (m *guided[S, G]) choose(at int32) int32 {
	switch {
	case m.set.Algorithm == PUCT:
		return m.puct(at)
	case at == 0:
		return m.gumbelRoot()
	}
	return m.gumbelInterior(at)
}

// logit is a prior as a logit, finite for a zero prior.
func logit(p float32) float64 { return math.Log(math.Max(float64(p), tinyPrior)) }

const tinyPrior = 1e-30

func (m *guided[S, G]) Result(policy []float32) (action int, value float32) {
	clear(policy)        // nil: the action and value only
	m.readLegal(&m.root) // the root's actions are legal in every deal: each has a child
	if m.set.Algorithm == PUCT {
		action = m.visitPolicy(policy)
	} else {
		action = m.gumbelPolicy(policy)
	}
	return action, float32(m.nodeValue(0))
}

// visitPolicy writes the root's visit distribution and returns its most
// visited action (ties: the higher prior, then the later child).
func (m *guided[S, G]) visitPolicy(policy []float32) int {
	total, best := 0.0, int32(0)
	for c := m.nodes[0].child; c != 0; c = m.nodes[c].sibling {
		n, b := &m.nodes[c], &m.nodes[best]
		total += float64(n.visits)
		if best == 0 || n.visits > b.visits || n.visits == b.visits && n.prior >= b.prior {
			best = c
		}
	}
	for c := m.nodes[0].child; c != 0 && policy != nil; c = m.nodes[c].sibling {
		policy[m.nodes[c].action] = float32(float64(m.nodes[c].visits) / total)
	}
	return int(m.nodes[best].action)
}
