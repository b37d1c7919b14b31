package bots

import (
	"math/bits"
	"slices"
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

// Search is one guided search of one position. A leaf's evaluation values
// the position for every seat, from its seat to play's view (Targets'
// Values: the k-th value is seat (ToPlay + k) mod N's), each in [−1, 1] on
// the terminal rewards' scale (ShareValue), and each node is credited the
// value of the seat that chose its action (max-n); or it gives the seat to
// play's value only, and a value v then counts −v/(N−1) for each other seat
// (the zero-sum mean, exact for two).
type Search interface {
	// Next advances the search to its next leaf and writes the observation
	// of the leaf's seat to play and its mask.
	Next(obs, mask []uint8) Status
	// Expand answers the oldest leaf Next gave and not yet answered:
	// priors over the whole action space (only the leaf's legal actions
	// count; their sum must be positive) and its values, one per seat or
	// the seat to play's only.
	Expand(priors, values []float32)
	// Result writes the improved policy and the root's mean values
	// (Targets) where asked and returns the chosen action.
	Result(t Targets) (action int)
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

// selection is a guided search's rule for walking its tree (PUCT or
// Gumbel), chosen once per search: kids are the children of a node legal
// in the deal at hand, in child order.
type selection interface {
	// rootEvaluated readies the root's selection once its priors are in.
	rootEvaluated(t *gtree, r *rng.Rand)
	// choose is the kid of at a simulation walks to.
	choose(t *gtree, at int32, kids []int32) int32
	// result writes the root's improved policy (unless nil) and returns
	// the action chosen.
	result(t *gtree, kids []int32, policy []float32) int
}

// Play is the choice of a search that evaluates its own leaves (set has
// Playouts) of s for its seat to play, drawing from seed, stopping early
// once stop is set, with its targets written where asked. A forced move is
// not searched unless targets are asked for.
func (g *Guides[S, G]) Play(set GuidedSettings, s *S, seed uint64, stop *atomic.Bool, t Targets) (action int) {
	if action, ok := forced[S, G](s, t); ok {
		return action
	}
	m := g.Start(set, s, seed, stop, nil)
	defer m.Release()
	if m.Next(nil, nil) != Done {
		panic("bots: a playout search asked for an evaluation")
	}
	return m.Result(t)
}

// leaf is an evaluation asked for: its node, its seat to play, how many
// children it was given (its legal actions), its path, steps[from:to] of
// paths, and with a PlayoutWeight, every seat's value of its playout.
type leaf struct {
	node     int32
	seat     int8
	children int16
	from, to int32
	playout  [MaxSeats]float32
}

// leafQueue holds the leaves out for evaluation, oldest first, and their
// paths.
type leafQueue struct {
	leaves []leaf
	head   int    // the next to answer
	paths  []step // the leaves' paths
}

func (q *leafQueue) reset() { q.leaves, q.paths, q.head = q.leaves[:0], q.paths[:0], 0 }

// out is how many leaves are waiting for their evaluation.
func (q *leafQueue) out() int { return len(q.leaves) - q.head }

func (q *leafQueue) push(node int32, seat, children int, path []step, playout [MaxSeats]float32) {
	from := int32(len(q.paths))
	q.paths = append(q.paths, path...)
	q.leaves = append(q.leaves, leaf{node: node, seat: int8(seat), children: int16(children), from: from,
		to: int32(len(q.paths)), playout: playout})
}

// pop takes the oldest leaf out, with its path (valid until the next push).
func (q *leafQueue) pop() (leaf, []step) {
	l := q.leaves[q.head]
	q.head++
	path := q.paths[l.from:l.to]
	if q.head == len(q.leaves) {
		q.reset()
	}
	return l, path
}

// oldest is the next leaf pop takes.
func (q *leafQueue) oldest() leaf { return q.leaves[q.head] }

// walk is a descent's scratch: the deal at hand, the path so far and what
// is legal there.
type walk[S any] struct {
	game      S
	path      []step // root first
	legal     []int
	legalBits Actions // legal, as a set
	kids      []int32 // the node's children legal in this deal
}

// guided is one search's state and memory, reused from search to search.
type guided[S any, G Game[S]] struct {
	set     GuidedSettings
	root    S
	seat    int // the root's seat to play
	players int
	started int // simulations begun (the root's evaluation is none)
	tree    gtree
	// Every seat's values backed up through the root, and how many: the
	// tree keeps the choosing seat's only.
	rootSums    [MaxSeats]float64
	rootBackUps int
	walk        walk[S]
	queue       leafQueue
	sel         selection // &puct or &gumbel
	puct        puct
	gumbel      gumbelMuZero
	r           rng.Rand
	stop        *atomic.Bool
	observe     Observer[S]
	pool        *sync.Pool
}

func (m *guided[S, G]) start(set GuidedSettings, s *S, seed uint64, stop *atomic.Bool) {
	m.set, m.root, m.r, m.stop = set, *s, rng.New(seed), stop
	g := G(&m.root)
	m.seat, m.players = g.ToPlay(), g.Seats()
	m.tree.reset()
	m.queue.reset()
	m.started, m.rootSums, m.rootBackUps = 0, [MaxSeats]float64{}, 0
	m.puct.set, m.gumbel.set = &m.set, &m.set
	m.sel = &m.gumbel
	if set.Algorithm == PUCT {
		m.sel = &m.puct
	}
}

func (m *guided[S, G]) Release() { m.pool.Put(m) }

func (m *guided[S, G]) Next(obs, mask []uint8) Status {
	for {
		switch {
		case m.tree.nodes[0].state != fresh && m.started == m.set.Simulations:
			if m.queue.out() > 0 {
				return Wait
			}
			return Done
		case m.queue.out() >= m.set.LeavesPerEnv:
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
	w := &m.walk
	w.game = m.root
	g := G(&w.game)
	g.Redeal(m.seat, &m.r)
	w.path = append(w.path[:0], step{node: 0, seat: -1})
	at := int32(0)
	for !g.Over() {
		switch m.tree.nodes[at].state {
		case waiting:
			return collided
		case fresh:
			m.ask(at, obs, mask)
			return asked
		}
		seat := g.ToPlay()
		next := m.sel.choose(&m.tree, at, m.legalKids(at))
		play[S](g, int(m.tree.nodes[next].action))
		w.path = append(w.path, step{node: next, seat: int8(seat)})
		at = next
	}
	m.started++
	m.tree.visit(w.path, false)
	m.backUp(w.path, m.outcomeValues(outcome[S](g)), false)
	return scored
}

// ask makes node at a leaf: its children are the actions legal in this
// deal (their priors come with its evaluation), and its path holds a visit
// (and with several leaves out, a virtual loss) until the evaluation comes.
// With a PlayoutWeight, the deal is then played out (after its observation
// is written): the leaf keeps the playout's values for Expand to mix in.
func (m *guided[S, G]) ask(at int32, obs, mask []uint8) {
	w := &m.walk
	seat := G(&w.game).ToPlay()
	m.readLegal(&w.game)
	m.tree.addChildren(at, w.legal)
	m.tree.nodes[at].state, m.tree.nodes[at].seat = waiting, int8(seat)
	if at != 0 {
		m.started++
	}
	m.tree.visit(w.path, m.set.LeavesPerEnv > 1)
	var playout [MaxSeats]float32
	if !m.set.Playouts {
		m.observe(obs, &w.game, seat)
		bitset.WriteBytes(mask, w.legalBits[:])
		if m.set.PlayoutWeight > 0 {
			playout = m.outcomeValues(m.playOut())
		}
	}
	m.queue.push(at, seat, len(w.legal), w.path, playout)
}

func (m *guided[S, G]) Expand(priors, values []float32) {
	l := m.queue.oldest()
	m.tree.setPriors(l.node, int(l.children), priors)
	v := m.seatValues(int(l.seat), values)
	if λ := float32(m.set.PlayoutWeight); λ > 0 {
		for i := range m.players {
			v[i] = (1-λ)*v[i] + λ*l.playout[i]
		}
	}
	m.answer(v[l.seat], v)
}

// evaluateByPlayout answers the leaf just asked for itself: uniform priors
// over its legal actions and the value of a greedy playout from it.
func (m *guided[S, G]) evaluateByPlayout() {
	l := m.queue.oldest()
	m.tree.uniformPriors(l.node, int(l.children))
	values := m.outcomeValues(m.playOut())
	m.answer(values[l.seat], values)
}

// answer backs up the oldest leaf out, whoever evaluated it: the leaf
// keeps its own value (raw, for its seat to play) and its path is credited
// values.
func (m *guided[S, G]) answer(raw float32, values [MaxSeats]float32) {
	l, path := m.queue.pop()
	n := &m.tree.nodes[l.node]
	n.raw, n.state = raw, expanded
	if l.node == 0 {
		m.sel.rootEvaluated(&m.tree, &m.r)
	}
	m.backUp(path, values, m.set.LeavesPerEnv > 1)
}

// backUp credits a simulation's values along its path (gtree.backUp), and
// every seat's at the root.
func (m *guided[S, G]) backUp(path []step, values [MaxSeats]float32, virtualLoss bool) {
	m.tree.backUp(path, values, virtualLoss)
	for i, v := range values {
		m.rootSums[i] += float64(v)
	}
	m.rootBackUps++
}

// readLegal reads the legal actions of s, as a list and as a set.
func (m *guided[S, G]) readLegal(s *S) {
	w := &m.walk
	w.legalBits = G(s).LegalSet()
	w.legal = AppendSet(w.legal[:0], w.legalBits[:])
}

// legalKids reads what is legal in the deal at hand and returns at's
// children legal in it, in child order. An action legal in this deal and
// not in the one at was evaluated in (a card the redeal put on the market)
// first gets a child, with the mean prior of at's children; such children
// come first (addChild puts a child first).
func (m *guided[S, G]) legalKids(at int32) []int32 {
	w, t := &m.walk, &m.tree
	w.legalBits = G(&w.game).LegalSet()
	children := 0
	w.kids = w.kids[:0]
	for c := t.nodes[at].child; c != 0; c = t.nodes[c].sibling {
		children++
		if bitset.Has(w.legalBits[:], int(t.nodes[c].action)) {
			w.kids = append(w.kids, c)
		}
	}
	if len(w.kids) == bitset.Len(w.legalBits[:]) {
		return w.kids // every legal action has its child, as mostly
	}
	var seen Actions
	for c := t.nodes[at].child; c != 0; c = t.nodes[c].sibling {
		bitset.Add(seen[:], int(t.nodes[c].action))
	}
	added := 0
	for i := range seen {
		for unseen := w.legalBits[i] &^ seen[i]; unseen != 0; unseen &= unseen - 1 {
			t.addChild(at, i<<6+bits.TrailingZeros64(unseen), 1/float32(children))
			added++
		}
	}
	n := len(w.kids) // the new children, newest first, then the others
	w.kids = slices.Grow(w.kids, added)[:n+added]
	copy(w.kids[added:], w.kids[:n])
	for k := range added {
		w.kids[k] = t.nodes[at].child - int32(k)
	}
	return w.kids
}

// kids are at's children whose actions are in w.legalBits, in child order.
func (m *guided[S, G]) kids(at int32) []int32 {
	w, t := &m.walk, &m.tree
	w.kids = w.kids[:0]
	for c := t.nodes[at].child; c != 0; c = t.nodes[c].sibling {
		if bitset.Has(w.legalBits[:], int(t.nodes[c].action)) {
			w.kids = append(w.kids, c)
		}
	}
	return w.kids
}

// Result's seat to play's value is the root's own node value (the tree's
// sums, as the search chose by them); the other seats' come from rootSums.
func (m *guided[S, G]) Result(t Targets) (action int) {
	clear(t.Policy)
	m.readLegal(&m.root) // the root's actions are legal in every deal: each has a child
	action = m.sel.result(&m.tree, m.kids(0), t.Policy)
	if t.Values != nil {
		var values [MaxSeats]float64
		for i := range m.players {
			values[i] = m.rootSums[i] / float64(max(m.rootBackUps, 1))
		}
		values[m.seat] = m.tree.nodeValue(0)
		t.writeValues(&values, m.seat, m.players)
	}
	return action
}

// playOut plays this deal to the end with the greedy bot; a playout cut
// short (a rare stalling game) is a draw.
func (m *guided[S, G]) playOut() Outcome {
	g := G(&m.walk.game)
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

// seatValues are a leaf's values, from the view of seat, its seat to
// play, indexed by seat: each seat's own, or with one value v, −v/(N−1)
// for the others.
func (m *guided[S, G]) seatValues(seat int, values []float32) [MaxSeats]float32 {
	var v [MaxSeats]float32
	for k := range m.players {
		if len(values) == 1 {
			v[(seat+k)%m.players] = -values[0] / float32(m.players-1)
		} else {
			v[(seat+k)%m.players] = values[k]
		}
	}
	v[seat] = values[0]
	return v
}
