// Package turnbased is the one env every turn-based game of this project is:
// seating, modes, reset and step, the bots' turns, rewards and score
// shaping, masks, snapshots and the checks of the search ops, and the
// options they read, written once over the small Rules interface that each
// game implements on its engine's state. A game package supplies only what
// is its own: its engine, action table, observation encoder, greedy
// heuristic, board view, components and option extras (Game).
package turnbased

import (
	"github.com/splendor-rl/splendor/env"
	"github.com/splendor-rl/splendor/env/bots"
	"github.com/splendor-rl/splendor/env/tableview"
)

// Rules is what the env needs of a game beyond what its bots need: S is the
// engine's state as a plain value (assigning it copies the game) and *S has
// these methods. The step path calls them directly (G is a type parameter,
// not an interface value), so it stays allocation-free.
type Rules[S any] interface {
	bots.Game[S]
	// Apply plays action for the seat to play and says where the game
	// stands after it; an illegal one is refused and changes nothing.
	Apply(action int) (Progress, error)
	// Seats is the number of players at the table.
	Seats() int
	// Blocked reports a game over because nobody can ever act again: no
	// result of play, so the env reports it as truncated.
	Blocked() bool
	// Winners has bit i set for each winner of a game over by the rules.
	Winners() uint8
	// Points is seat's prestige, for score_diff shaping.
	Points(seat int) int
	// WriteMask writes 1 for each legal action and 0 elsewhere.
	WriteMask(mask []uint8)
	// Observe writes the table as seat me sees it, toPlay being the seat
	// whose decision the env expects (Env.ToPlay).
	Observe(obs []uint8, me, toPlay int)
	// View is the table as viewer (a seat, or tableview.Referee) sees it,
	// with the episode's fields, in the JSON schema of docs/trace.md, and
	// the same view as a text board.
	View(viewer int, episode tableview.Episode) (view any, board string)
	// String is the game in the engine's notation, hidden information
	// included.
	String() string
}

// Progress is where a game stands after a decision. The env asks it once
// per decision: a call through a type parameter's methods is an indirect
// call (Go shares one instance of generic code per shape), so the step path
// asks few questions.
type Progress struct {
	ToPlay int    // the seat to decide next
	Turns  uint32 // completed turns, for the turn limit
	Over   bool
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
	// MinPlayers and MaxPlayers bound the "players" option (default: the
	// minimum).
	MinPlayers, MaxPlayers int
	// WinningScore scales score_diff shaping; MaxShaping bounds the shaping
	// of one step.
	WinningScore int
	MaxShaping   float32
	// Table reads the game's own options (env.OptionReader) for a table of
	// players seats.
	Table func(o *env.OptionReader, players int) Table[S]
	// Parse reads a game in the engine's notation and checks that it could
	// occur in play (set_state).
	Parse func(text string) (S, error)
	// Components describes the printed components for viewers (optional).
	Components func() any
	// Features is the block of derived values that the "features" option
	// appends to the observation (optional: nil, the option is not read).
	Features *Features[S]

	bots bots.Bots[S, G] // the built-in bots, their search trees shared by every env
}

// Table is what a game's own options decide for one env.
type Table[S any] struct {
	// Deal deals a new game from seed.
	Deal func(seed uint64) S
	// Fits refuses a checked state that these options could not reach
	// (another payment rule…); nil accepts every one.
	Fits func(s *S) error
}

// Register makes g an env (env.Register).
func Register[S any, G Rules[S]](g *Game[S, G]) {
	env.Register(env.Game{ID: g.ID, Components: g.Components, Make: func(o *env.OptionReader) (env.Spec, func() env.Env) {
		c := g.readConfig(o)
		return g.spec(c), func() env.Env { return g.newEnv(c) }
	}})
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

func (g *Game[S, G]) spec(c config[S]) env.Spec {
	labels := make([]string, g.NumActions)
	for i := range labels {
		labels[i] = g.Label(i)
	}
	bound := float32(1)
	if c.reward == RewardScoreDiff {
		bound += g.MaxShaping
	}
	return env.Spec{ID: g.ID, Version: g.Version, ObsShape: []int{g.obsSize(c)}, NumActions: g.NumActions,
		ActionLabels: labels, Players: c.players, Mode: c.mode, RewardRange: [2]float32{-bound, bound}}
}
