package bots

import (
	"math"
	"slices"
	"sync/atomic"
	"time"

	"github.com/splendor-rl/splendor/internal/bitset"
	"github.com/splendor-rl/splendor/internal/rng"
)

// Single-observer information-set MCTS (Cowling, Powley & Whitehouse 2012):
// every iteration redeals what the searching seat cannot see, then walks one
// tree of decisions shared by all those deals. A child is only available
// where its action is legal in the iteration's deal, so UCB counts, instead
// of its parent's visits, the times the child was available. Each node keeps
// the results of the seat that chose its action, so every seat, opponents
// included, picks what is best for itself.

// TreeBytes bounds the memory of one search (MaxIterations + 1 nodes, as
// long a path, the positions and action lists): the server counts one per
// search that can run at once.
const TreeBytes = (MaxIterations+1)*(nodeBytes+stepBytes) + 16<<10

const nodeBytes, stepBytes = 24, 8 // unsafe.Sizeof of node and step, kept equal by a test

// maxRollout cuts a playout that has not ended (a rare stalling game) and
// scores it as a draw.
const maxRollout = 1000

// node is one action in the tree; nodes live in one slice and link by index
// (0, the root, never being anyone's child nor sibling).
type node struct {
	child, sibling int32 // first child; next child of the same parent
	visits, avail  uint32
	value          float32 // sum of the choosing seat's outcomes
	action         int16
}

// step is one node on an iteration's path and the seat that chose it.
type step struct {
	node int32
	seat int8
}

// tree is one search's memory, reused from search to search.
type tree[S any, G Game[S]] struct {
	root, game S // the position searched; this iteration's deal of it
	nodes      []node
	path       []step
	legal      []int   // the legal actions of the position at hand, in order
	legalBits  Actions // the same as a set
	triedBits  Actions // the legal actions that already have a child
	r          rng.Rand
	shares     [MaxSeats]float64 // every seat's outcome shares summed over the iterations
}

// search returns the most visited of the root's actions after set's
// iterations (fewer once stop is set), drawing from seed, and writes the
// root's targets (Bots.Targets) where asked; s is not changed.
func (t *tree[S, G]) search(set Settings, s *S, seed uint64, stop *atomic.Bool, targets Targets) int {
	t.root, t.r = *s, rng.New(seed)
	t.findLegal(&t.root)
	if len(t.legal) == 1 && !targets.Asked() {
		return t.legal[0]
	}
	seat := G(&t.root).ToPlay()
	t.nodes = append(slices.Grow(t.nodes[:0], set.Iterations+1), node{})
	t.shares = [MaxSeats]float64{}
	start, done, counted := time.Now(), 0, 0
	for ; done < set.Iterations; done++ {
		if done%checkEvery == 0 {
			searched.iterations.Add(int64(done - counted))
			counted = done
			if stop != nil && stop.Load() {
				break
			}
		}
		t.game = t.root
		G(&t.game).Redeal(seat, &t.r)
		t.descend(set.Exploration)
		t.playOut(set.Rollout)
		t.backUp(outcome[S, G](&t.game))
	}
	searched.iterations.Add(int64(done - counted))
	searched.nanos.Add(int64(time.Since(start)))
	t.findLegal(&t.root)
	if targets.Asked() {
		t.targets(targets, seat, G(&t.root).Seats())
	}
	return t.best()
}

// targets writes the visit distribution of the root's children legal in
// the position into t.Policy and every seat's mean outcome share, as a
// value, into t.Values. The seat to play's is its children's mean (each
// child holds that seat's results); every iteration visits one such child,
// so the visits are the iterations run.
func (t *tree[S, G]) targets(targets Targets, seat, players int) {
	var visits, value float64
	for i := t.nodes[0].child; i != 0; i = t.nodes[i].sibling {
		if n := &t.nodes[i]; bitset.Has(t.legalBits[:], int(n.action)) {
			visits += float64(n.visits)
			value += float64(n.value)
		}
	}
	if targets.Policy != nil {
		clear(targets.Policy)
		for i := t.nodes[0].child; i != 0; i = t.nodes[i].sibling {
			if n := &t.nodes[i]; bitset.Has(t.legalBits[:], int(n.action)) {
				targets.Policy[n.action] = float32(float64(n.visits) / visits)
			}
		}
	}
	var values [MaxSeats]float64
	for i := range players {
		values[i] = float64(ShareValue(float32(t.shares[i]/visits), players))
	}
	values[seat] = float64(ShareValue(float32(value/visits), players))
	targets.writeValues(&values, seat, players)
}

// checkEvery is how many iterations a search runs between looks at its
// batch's stop flag, the first look before any: a closed batch's search
// ends within a few milliseconds (an iteration is 20–50 µs), and one that
// starts after the close runs none (a vs-bots batch would otherwise search
// checkEvery iterations for each of its envs). Its iterations are counted
// at each look too, so /metrics (and a test of Stop) sees a long search's
// work while it runs.
const checkEvery = 32

// searched counts every search's iterations and time, for /metrics.
var searched struct{ iterations, nanos atomic.Int64 }

// Searched is the iterations and seconds of every search this process ran:
// the iterations of a running search up to its last look at stop, its
// seconds once it ends.
func Searched() (iterations int64, seconds float64) {
	return searched.iterations.Load(), float64(searched.nanos.Load()) / 1e9
}

// descend walks from the root by UCB until it adds a node for an action
// never tried there (or the game ends).
func (t *tree[S, G]) descend(c float64) {
	g := G(&t.game)
	t.path = t.path[:0]
	at := int32(0)
	for !g.Over() {
		t.findLegal(&t.game)
		seat := int8(g.ToPlay())
		next, tried := t.choose(at, c)
		if tried < len(t.legal) {
			next = t.expand(at, t.untried(tried))
		}
		play[S](g, int(t.nodes[next].action))
		t.path = append(t.path, step{next, seat})
		if tried < len(t.legal) {
			return
		}
		at = next
	}
}

// choose scores at's children that are legal in this deal, counting their
// availability, and returns the best with how many there were.
func (t *tree[S, G]) choose(at int32, c float64) (best int32, tried int) {
	bestScore := math.Inf(-1)
	for i := t.nodes[at].child; i != 0; i = t.nodes[i].sibling {
		n := &t.nodes[i]
		if !bitset.Has(t.legalBits[:], int(n.action)) {
			continue
		}
		n.avail++
		tried++
		bitset.Add(t.triedBits[:], int(n.action))
		visits := float64(n.visits)
		score := float64(n.value)/visits + c*math.Sqrt(math.Log(float64(n.avail))/visits)
		if score > bestScore {
			best, bestScore = i, score
		}
	}
	return best, tried
}

// untried picks uniformly one of the legal actions without a child.
func (t *tree[S, G]) untried(tried int) int {
	k := t.r.Intn(len(t.legal) - tried)
	for _, a := range t.legal {
		if !bitset.Has(t.triedBits[:], a) {
			if k == 0 {
				return a
			}
			k--
		}
	}
	panic("bots: no untried action")
}

// expand adds a child of at for action.
func (t *tree[S, G]) expand(at int32, action int) int32 {
	i := int32(len(t.nodes))
	t.nodes = append(t.nodes, node{sibling: t.nodes[at].child, avail: 1, action: int16(action)})
	t.nodes[at].child = i
	return i
}

// playOut plays the deal to the end with the rollout bot.
func (t *tree[S, G]) playOut(rollout Kind) {
	g := G(&t.game)
	for n := 0; n < maxRollout && !g.Over(); n++ {
		if rollout == Greedy {
			play[S](g, g.Greedy(&t.r))
		} else {
			play[S](g, RandomAction[S](g, &t.r))
		}
	}
}

// backUp credits every node of the path with its choosing seat's outcome; a
// playout cut short counts as a draw among all (a share of 1/N each, as the
// guided search's playouts count it).
func (t *tree[S, G]) backUp(outcome Outcome) {
	if g := G(&t.game); !g.Over() {
		outcome = Shares(0, g.Seats())
	}
	for _, s := range t.path {
		n := &t.nodes[s.node]
		n.visits++
		n.value += outcome[s.seat]
	}
	for i, share := range outcome {
		t.shares[i] += float64(share)
	}
}

// best is the root's most visited action legal in the position itself, not
// only in some deal of it (ties: the better mean, then the later child).
func (t *tree[S, G]) best() int {
	best := int32(0)
	for i := t.nodes[0].child; i != 0; i = t.nodes[i].sibling {
		n, b := &t.nodes[i], &t.nodes[best]
		if bitset.Has(t.legalBits[:], int(n.action)) &&
			(best == 0 || n.visits > b.visits || n.visits == b.visits && n.value >= b.value) {
			best = i
		}
	}
	if best == 0 {
		return t.legal[0] // no deal agreed with the position: cannot happen if Redeal keeps all seat can see
	}
	return int(t.nodes[best].action)
}

// findLegal reads the legal actions of s, and clears the tried ones.
func (t *tree[S, G]) findLegal(s *S) {
	t.legalBits, t.triedBits = G(s).LegalSet(), Actions{}
	t.legal = AppendSet(t.legal[:0], t.legalBits[:])
}
