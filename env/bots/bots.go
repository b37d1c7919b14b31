// Package bots is the built-in players, written once for every game: random,
// greedy (each game's own one-ply heuristic), information-set Monte Carlo
// tree search, and the baselines that play a trained network (baseline.go),
// over the small Game interface each env implements on its engine's state.
// It imports only the standard library and internal/: a network is an
// Evaluator here.
package bots

import (
	"math/bits"
	"sync"
	"sync/atomic"

	"github.com/splendor-rl/splendor/internal/bitset"
	"github.com/splendor-rl/splendor/internal/rng"
)

// MaxSeats bounds the seats of every game (Splendor's four).
const MaxSeats = 4

// Outcome is each seat's share of the win, in [0, 1], summing to 1.
type Outcome [MaxSeats]float32

// Actions is a set of action indices: bit i of word i/64 for action i.
type Actions = bitset.Actions

// Game is what the bots need of a game: S is a plain value (assigning it
// copies the game, as the engines' States are) and *S has these methods,
// most of them the engine's own.
type Game[S any] interface {
	*S
	// ToPlay is the seat to decide.
	ToPlay() int
	// Over reports the end of the game, blocked games included.
	Over() bool
	// LegalSet is the legal actions. (A value, not a set to fill: a
	// pointer passed through a type parameter's method escapes to the heap.)
	LegalSet() Actions
	// Apply plays action for the seat to play; an illegal one is refused
	// and changes nothing.
	Apply(action int) error
	// Greedy is the greedy bot's choice now.
	Greedy(r *rng.Rand) int
	// Redeal redeals everything seat cannot see (see env.Resampler).
	Redeal(seat int, r *rng.Rand)
	// Winners has bit i set for each winner of a game over by the rules
	// (none for a blocked one); Seats is the number of players.
	Winners() uint8
	Seats() int
}

// Legal appends g's legal actions, in increasing order, to buf.
func Legal[S any, G Game[S]](g G, buf []int) []int {
	legal := g.LegalSet()
	return AppendSet(buf, legal[:])
}

// RandomAction is the random bot's choice: a legal action, uniformly.
func RandomAction[S any, G Game[S]](g G, r *rng.Rand) int {
	legal := g.LegalSet()
	return bitset.Nth(legal[:], r.Intn(bitset.Len(legal[:])))
}

// play applies a bot's choice, which the game's own rules made legal.
func play[S any, G Game[S]](g G, action int) {
	if err := g.Apply(action); err != nil {
		panic("bots: a bot chose an illegal action: " + err.Error())
	}
}

// outcome is the result of g, a game over (nobody wins a blocked one: equal
// shares).
func outcome[S any, G Game[S]](g G) Outcome { return Shares(g.Winners(), g.Seats()) }

// Bots plays one game's built-in bots; the zero value is ready. Searches
// reuse their trees from a pool: one tree per search running at once (the
// worker pool's width), not one per env, so memory does not grow with the
// number of envs.
type Bots[S any, G Game[S]] struct{ trees sync.Pool }

// Act is the action bot chooses for the seat to play in s, drawing from
// the bot's stream r; s is not changed.
func (b *Bots[S, G]) Act(bot Spec, r *rng.Rand, s *S) int { return b.ActUntil(bot, r, s, nil) }

// ActUntil is Act, but a search stops early once stop is set (its batch is
// being closed: the answer will not be used), playing its best action so far.
func (b *Bots[S, G]) ActUntil(bot Spec, r *rng.Rand, s *S, stop *atomic.Bool) int {
	switch bot.Kind {
	case Random:
		return RandomAction[S, G](s, r)
	case Greedy:
		return G(s).Greedy(r)
	case MCTS:
		return b.search(bot.Search, r, s, stop, Targets{})
	}
	panic("bots: " + bot.Kind.String() + " plays through its network (NetBot.Act)")
}

// Targets is what an mcts bot with set would play in s (the action ActUntil
// returns), with its search's targets for training written into t: the
// root's visit distribution over the actions legal in s (zero where
// illegal; summing to 1) and every seat's mean outcome share over the
// search's playouts, as a value (Targets). A position with a single legal
// action is searched too, for its values (Act skips that search).
func (b *Bots[S, G]) Targets(set Settings, r *rng.Rand, s *S, stop *atomic.Bool, t Targets) (action int) {
	return b.search(set, r, s, stop, t)
}

// search runs one search on a pooled tree, drawing its seed from r.
func (b *Bots[S, G]) search(set Settings, r *rng.Rand, s *S, stop *atomic.Bool, targets Targets) int {
	t, _ := b.trees.Get().(*tree[S, G])
	if t == nil {
		t = new(tree[S, G])
	}
	action := t.search(set, s, r.Uint64(), stop, targets)
	b.trees.Put(t)
	return action
}

// Shares is the Outcome of a game over whose winners are the bits of
// winners (bit i for seat i): a shared win splits 1; no winner (a blocked
// game) is a draw among all players.
func Shares(winners uint8, players int) Outcome {
	var o Outcome
	k := bits.OnesCount8(winners)
	for i := range players {
		switch {
		case k == 0:
			o[i] = 1 / float32(players)
		case winners&(1<<i) != 0:
			o[i] = 1 / float32(k)
		}
	}
	return o
}

// ShareValue is an outcome share in [0, 1] on the scale of the envs'
// terminal rewards (turnbased.TerminalRewards): (N·share − 1)/(N − 1) for N
// players, +1 for a sole win, −1/(N−1) for a loss, 0 for an even split;
// with two players, 2·share − 1. Zero-sum: when one seat's value is v, the
// others' values average −v/(N−1).
func ShareValue(share float32, players int) float32 {
	n := float32(players)
	return (n*share - 1) / (n - 1)
}

// AppendSet appends the members of a bit set (bit i of word i/64 for action
// i), in increasing order, to buf.
func AppendSet(buf []int, set []uint64) []int {
	for w, word := range set {
		for ; word != 0; word &= word - 1 {
			buf = append(buf, w*64+bits.TrailingZeros64(word))
		}
	}
	return buf
}
