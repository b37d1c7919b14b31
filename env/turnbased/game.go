// Package turnbased is the one env every turn-based game of this project is:
// seating, modes, reset and step, the bots' turns, rewards and score
// shaping, masks, snapshots and the checks of the search ops, and the
// options they read, written once over the small Rules interface that each
// game implements on its engine's state. A game package supplies only what
// is its own: its engine, action table, observation encoder, greedy
// heuristic, board view, components and option extras (Game).
package turnbased

import (
	"sync/atomic"

	"github.com/splendor-rl/splendor/env"
	"github.com/splendor-rl/splendor/env/bots"
	"github.com/splendor-rl/splendor/env/tableview"
)

// Rules is what the env needs of a game beyond what its bots need: S is the
// engine's state as a plain value (assigning it copies the game) and *S has
// these methods, most of them the engine's own. The step path calls them
// directly (G is a type parameter, not an interface value), so it stays
// allocation-free.
type Rules[S any] interface {
	bots.Game[S] // a game over with no winner was blocked: nobody could ever act again
	// Points is seat's prestige, for score_diff shaping.
	Points(seat int) int
	// Progress is the seat to play, the turns completed (for the turn
	// limit) and whether the game is over, in one call.
	Progress() (toPlay int, turns uint32, over bool)
	// WriteMask writes the legal actions as 0/1 bytes (LegalSet as a mask).
	WriteMask(mask []uint8)
	// Observe writes the table as seat me sees it into obs, zero, toPlay
	// being the seat whose decision the env expects (Env.ToPlay).
	Observe(obs []uint8, me, toPlay int)
	// View is the table as viewer (a seat, or tableview.Referee) sees it,
	// with the episode's fields, in the JSON schema of docs/trace.md, and
	// the same view as a text board.
	View(viewer int, episode tableview.Episode) (view any, board string)
	// String is the game in the engine's notation, hidden information
	// included.
	String() string
}

// Game is a game's description: what is fixed for its env id. Register
// makes it an env.
type Game[S any, G Rules[S]] struct {
	ID      string
	Version int // bump with a line in the game's spec page when layout or semantics change
	// NumActions and Label are the fixed action table.
	NumActions int
	Label      func(action int) string
	ObsSize    int
	// Layout names the observation's blocks (the spec's layout).
	Layout []env.Block
	// MinPlayers and MaxPlayers bound the "players" option (default: the
	// minimum).
	MinPlayers, MaxPlayers int
	// WinningScore scales score_diff shaping; MaxShaping bounds the shaping
	// of one step.
	WinningScore int
	MaxShaping   float32
	// Deal deals a new game of players seats from seed.
	Deal func(players int, seed uint64) S
	// Payment, for games whose buyer may choose how to pay, is a game's
	// flag for that rule: the "payment" option sets it on every deal, and
	// set_state refuses a game of the other rule. Nil: no such option.
	Payment func(s *S) *bool
	// Parse reads a game in the engine's notation and checks that it could
	// occur in play (set_state).
	Parse func(text string) (S, error)
	// Components describes the printed components for viewers (optional).
	Components func() any
	// Features is the block of derived values that the "features" option
	// appends to the observation (optional: nil, the option is not read).
	Features *Features[S]

	bots   bots.Bots[S, G]   // the built-in bots, their search trees shared by every env
	guides bots.Guides[S, G] // guided searches (guided.go), their trees shared likewise
	// leafObservers observe a guided search's leaves as an env does,
	// without and with the features block (guided.go).
	leafObservers [2]bots.Observer[S]
	// baselines are the baseline bots by edition and table size
	// (baseline.go): set at the server's start, read at every baseline
	// bot's decision.
	baselines [bots.MaxEditions + 1][bots.MaxSeats + 1]atomic.Pointer[bots.NetBot[S, G]]
}

// Register makes g an env (env.Register) and returns it.
func Register[S any, G Rules[S]](g *Game[S, G]) *Game[S, G] {
	g.observeLeaves()
	env.Register(env.Game{ID: g.ID, Components: g.Components, SetBaseline: g.setBaseline,
		Make: func(o *env.OptionReader) (env.Spec, func() env.Env) {
			c := g.readConfig(o)
			return g.spec(c), func() env.Env { return g.newEnv(c) }
		}})
	return g
}

// New is one env of g with opts (as Make reads them, without the batch's
// options), for tools and tests that hold one game.
func New[S any, G Rules[S]](g *Game[S, G], opts env.Options) (*Env[S, G], error) {
	o := env.NewOptionReader(opts)
	c := g.readConfig(o)
	if err := o.Check(); err != nil {
		return nil, err
	}
	return g.newEnv(c), nil
}

func (g *Game[S, G]) spec(c config) env.Spec {
	labels := make([]string, g.NumActions)
	for i := range labels {
		labels[i] = g.Label(i)
	}
	bound := float32(1)
	if c.reward == RewardScoreDiff {
		bound += g.MaxShaping
	}
	return env.Spec{ID: g.ID, Version: g.Version, ObsShape: []int{g.obsSize(c)}, Layout: g.layout(c),
		NumActions: g.NumActions, ActionLabels: labels, Players: c.players, Mode: c.mode, RewardRange: [2]float32{-bound, bound}}
}
