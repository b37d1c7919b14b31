package bots

import (
	"sync"
	"sync/atomic"

	"github.com/splendor-rl/splendor/internal/bitset"
	"github.com/splendor-rl/splendor/internal/rng"
)

// Guided search: information-set MCTS whose leaves are evaluated by someone
// else (a client's network, over the wire), many positions at once. Like
// mcts, every simulation redeals what the root's seat to play cannot see
// and walks one tree of action paths shared by all deals; unlike mcts, a
// simulation ends at a new node, whose evaluation (priors over the action
// space and a value for its seat to play) comes back later. A search is a
// state machine (Search): Next runs simulations until one needs an
// evaluation, Expand takes it, so that a caller can gather the leaves of
// many searches into one batch. Root selection is PUCT (AlphaZero) or
// Gumbel (Gumbel MuZero), named as DeepMind's mctx names them.

// Observer writes the observation of s that seat me, to play, is served
// (the env's, its options included): what a leaf's evaluator reads.
type Observer[S any] func(obs []uint8, s *S, me int)

// Status is where a search stands after Next.
type Status uint8

const (
	Leaf Status = iota // a leaf's observation and mask were written: Expand it
	Wait               // every leaf it may have out is out: Expand them first
	Done               // the budget is spent: Result
)

// Search is one guided search of one position. Values are for the seat to
// play at the node evaluated, in [−1, 1] on the terminal rewards' scale
// (ShareValue); with N seats, a value v of one seat counts −v/(N−1) for
// each other seat (the zero-sum mean, exact for two).
type Search interface {
	// Next advances the search to its next leaf and writes the observation
	// of the leaf's seat to play and its mask.
	Next(obs, mask []uint8) Status
	// Expand answers the oldest leaf Next gave and not yet answered:
	// priors over the whole action space (only the leaf's legal actions
	// count; their sum must be positive) and a value.
	Expand(priors []float32, value float32)
	// Result writes the improved policy over the action space and returns
	// the chosen action and the root's value for its seat to play.
	Result(policy []float32) (action int, value float32)
	// Release gives the search's memory back for the next search.
	Release()
}

// Guides starts one game's guided searches; the zero value is ready.
// Trees are pooled as Bots' are: memory grows with the searches running at
// once, and a warm search allocates nothing.
type Guides[S any, G Game[S]] struct{ searches sync.Pool }

// Start begins a search of s (which must not be over and is not changed)
// drawing from seed; with set.Playouts it evaluates its own leaves, else
// observe writes each leaf's observation. A playout search stops early once
// stop is set.
func (g *Guides[S, G]) Start(set GuidedSettings, s *S, seed uint64, stop *atomic.Bool, observe Observer[S]) Search {
	m, _ := g.searches.Get().(*guided[S, G])
	if m == nil {
		m = &guided[S, G]{pool: &g.searches}
	}
	m.start(set, s, seed, stop)
	m.observe = observe
	return m
}

// leaf is an evaluation asked for: its node, its seat to play, and its
// path, steps[from:to] of paths.
type leaf struct {
	node     int32
	seat     int8
	from, to int32
}

// guided is one search's state and memory, reused from search to search.
type guided[S any, G Game[S]] struct {
	set        GuidedSettings
	root, game S
	seat       int // the root's seat to play
	players    int
	nodes      []gnode
	path       []step // the descent being made, root first
	leaves     []leaf // asked for, oldest first; head is the next to answer
	head       int
	paths      []step    // the leaves' paths
	started    int       // simulations begun (the root's evaluation is none)
	noise      []float64 // the root's: Gumbel noise per child (Gumbel), by node index − 1
	considered []int32   // Gumbel: sequential halving's visit count to consider, per simulation
	legal      []int
	legalBits  Actions   // legal, as a set
	seenBits   Actions   // the actions of the node's children
	scratch    []float64 // per child of the node being scored
	r          rng.Rand
	stop       *atomic.Bool
	observe    Observer[S]
	pool       *sync.Pool
}

func (m *guided[S, G]) start(set GuidedSettings, s *S, seed uint64, stop *atomic.Bool) {
	m.set, m.root, m.r, m.stop = set, *s, rng.New(seed), stop
	g := G(&m.root)
	m.seat, m.players = g.ToPlay(), g.Seats()
	m.nodes = append(m.nodes[:0], gnode{})
	m.leaves, m.paths, m.head, m.started = m.leaves[:0], m.paths[:0], 0, 0
}

func (m *guided[S, G]) Release() { m.pool.Put(m) }

func (m *guided[S, G]) Next(obs, mask []uint8) Status {
	for {
		switch {
		case m.nodes[0].state != fresh && m.started == m.set.Simulations:
			if m.head < len(m.leaves) {
				return Wait
			}
			return Done
		case len(m.leaves)-m.head >= m.set.LeavesPerEnv:
			return Wait
		case m.set.Playouts && m.started&31 == 31 && m.stop != nil && m.stop.Load():
			return Done // the batch is closing: nobody reads the result
		}
		switch m.descend(obs, mask) {
		case collided:
			return Wait
		case asked:
			if !m.set.Playouts {
				return Leaf
			}
			m.evaluateByPlayout()
		}
	}
}

// descent is how a simulation's walk ended.
type descent uint8

const (
	scored   descent = iota // at a game over, backed up
	asked                   // at a new node: a leaf
	collided                // at a node whose evaluation is out (several leaves at once)
)

// descend walks one simulation from the root in a fresh deal until a new
// node or the end of the game.
func (m *guided[S, G]) descend(obs, mask []uint8) descent {
	m.game = m.root
	g := G(&m.game)
	g.Redeal(m.seat, &m.r)
	m.path = append(m.path[:0], step{node: 0, seat: -1})
	at := int32(0)
	for !g.Over() {
		switch m.nodes[at].state {
		case waiting:
			return collided
		case fresh:
			m.ask(at, obs, mask)
			return asked
		}
		seat := g.ToPlay()
		m.readLegal(&m.game)
		m.markLegal(at)
		next := m.choose(at)
		play[S](g, int(m.nodes[next].action))
		m.path = append(m.path, step{node: next, seat: int8(seat)})
		at = next
	}
	m.started++
	m.backUp(m.path, m.outcomeValues(outcome[S](g)))
	return scored
}

// ask makes node at a leaf: its children are the actions legal in this
// deal (their priors come with its evaluation), and its path holds a visit
// (and with several leaves out, a virtual loss) until the evaluation comes.
func (m *guided[S, G]) ask(at int32, obs, mask []uint8) {
	g := G(&m.game)
	seat := g.ToPlay()
	m.readLegal(&m.game)
	for _, a := range m.legal {
		m.addChild(at, a, 0)
	}
	m.nodes[at].state, m.nodes[at].seat = waiting, int8(seat)
	if at != 0 {
		m.started++
	}
	from := int32(len(m.paths))
	m.paths = append(m.paths, m.path...)
	m.leaves = append(m.leaves, leaf{node: at, seat: int8(seat), from: from, to: int32(len(m.paths))})
	for _, s := range m.path {
		n := &m.nodes[s.node]
		n.visits++
		if m.set.LeavesPerEnv > 1 && s.seat >= 0 {
			n.value-- // a virtual loss steers the next descents elsewhere
		}
	}
	if !m.set.Playouts {
		m.observe(obs, &m.game, seat)
		bitset.WriteBytes(mask, m.legalBits[:])
	}
}

func (m *guided[S, G]) Expand(priors []float32, value float32) {
	l := m.leaves[m.head]
	m.setPriors(l.node, priors)
	m.answer(l, value, m.seatValues(int(l.seat), value))
}

// evaluateByPlayout answers the leaf just asked for itself: uniform priors
// over its legal actions and the value of a greedy playout from it.
func (m *guided[S, G]) evaluateByPlayout() {
	l := m.leaves[m.head]
	m.uniformPriors(l.node)
	values := m.outcomeValues(m.playOut())
	m.answer(l, values[l.seat], values)
}

// answer is the one backup of an evaluated leaf, the oldest out, whoever
// evaluated it: the leaf keeps its own value (raw, for its seat to play),
// its path gives back the virtual loss ask took and is credited values.
func (m *guided[S, G]) answer(l leaf, raw float32, values [MaxSeats]float32) {
	m.head++
	n := &m.nodes[l.node]
	n.raw, n.state = raw, expanded
	if l.node == 0 {
		m.rootExpanded()
	}
	path := m.paths[l.from:l.to]
	if m.set.LeavesPerEnv > 1 {
		for _, s := range path {
			if s.seat >= 0 {
				m.nodes[s.node].value++ // the virtual loss, taken back
			}
		}
	}
	m.credit(path, values)
	if m.head == len(m.leaves) {
		m.leaves, m.paths, m.head = m.leaves[:0], m.paths[:0], 0
	}
}

// playOut plays this deal to the end with the greedy bot; a playout cut
// short (a rare stalling game) is a draw.
func (m *guided[S, G]) playOut() Outcome {
	g := G(&m.game)
	for n := 0; n < maxRollout && !g.Over(); n++ {
		play[S](g, g.Greedy(&m.r))
	}
	if !g.Over() {
		return Shares(0, m.players)
	}
	return outcome[S](g)
}

// outcomeValues is each seat's value of a game's outcome.
func (m *guided[S, G]) outcomeValues(o Outcome) [MaxSeats]float32 {
	var v [MaxSeats]float32
	for i := range m.players {
		v[i] = ShareValue(o[i], m.players)
	}
	return v
}

// seatValues is a value of seat for every seat: −value/(N−1) for the others.
func (m *guided[S, G]) seatValues(seat int, value float32) [MaxSeats]float32 {
	var v [MaxSeats]float32
	for i := range m.players {
		v[i] = -value / float32(m.players-1)
	}
	v[seat] = value
	return v
}

// backUp visits every node of path and credits it.
func (m *guided[S, G]) backUp(path []step, values [MaxSeats]float32) {
	for _, s := range path {
		m.nodes[s.node].visits++
	}
	m.credit(path, values)
}

// credit adds to every node of path its choosing seat's value.
func (m *guided[S, G]) credit(path []step, values [MaxSeats]float32) {
	for _, s := range path {
		if s.seat >= 0 {
			m.nodes[s.node].value += values[s.seat]
		}
	}
}
