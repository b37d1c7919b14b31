// Package splendorenv is Splendor as an RL environment (id "splendor-v1"):
// the action table, the observation layout, the greedy bot, the board view
// and the payment option over the rules engine in env/splendor; the rest of
// the env (env/turnbased) is shared by every game.
package splendorenv

import (
	"github.com/splendor-rl/splendor/env/splendor"
	"github.com/splendor-rl/splendor/env/turnbased"
)

// ID and Version name this env; bump Version with a line in
// docs/envs/splendor.md whenever the layout or semantics change.
const (
	ID      = "splendor-v1"
	Version = 2
)

// maxShapingPerStep bounds one step's score_diff shaping: a seat gains at most
// 5 (card) + 3 (noble) points per turn, and in the worst case its own gain
// and the others' mean gain both count, over the 15-point scale.
const maxShapingPerStep = float32(2*(5+splendor.NoblePoints)) / splendor.WinningScore

// Game is Splendor's description as a turn-based env, with the payment
// option (splendor.State.ChoosePayment).
var Game = turnbased.Register(&turnbased.Game[game, *game]{
	ID: ID, Version: Version, NumActions: splendor.NumActions, Label: splendor.Label, ObsSize: ObsSize, Layout: layout,
	MinPlayers: splendor.MinPlayers, MaxPlayers: splendor.MaxPlayers, WinningScore: splendor.WinningScore,
	MaxShaping: maxShapingPerStep, Deal: deal, Parse: parseChecked, Components: components,
	Payment: func(g *game) *bool { return &g.ChoosePayment },
})

// deal deals a game of players seats, a count the option reader checked.
func deal(players int, seed uint64) game {
	s, _ := splendor.New(players, seed)
	return game{s}
}

// parseChecked reads a game and checks it could occur in play.
func parseChecked(text string) (game, error) {
	s, err := splendor.Parse(text)
	if err == nil {
		err = s.Check()
	}
	return game{s}, err
}
