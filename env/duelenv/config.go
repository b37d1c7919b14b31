// Package duelenv is Splendor Duel as an RL environment (id
// "splendor-duel-v1"): the action table, the observation layout, the greedy
// bot, the board view and the payment option over the rules engine in
// env/duel; the rest of the env (env/turnbased) is shared by every game.
package duelenv

import (
	"github.com/splendor-rl/splendor/env/duel"
	"github.com/splendor-rl/splendor/env/turnbased"
)

// ID and Version name this env; bump Version with a line in
// docs/envs/splendor-duel.md whenever the layout or semantics change.
const (
	ID      = "splendor-duel-v1"
	Version = 2
)

// maxShapingPerStep bounds one step's score_diff shaping: between two client
// decisions each seat gains at most a card's and a royal's prestige and more
// through an extra turn; 2·(2 turns · (6 + 3))/20 is a safe bound.
const maxShapingPerStep = float32(2*2*(6+3)) / duel.PointsToWin

// Game is Splendor Duel's description as a turn-based env. The "players"
// option is accepted (2 only) for symmetry with splendor-v1. The payment
// option: gems and pearls before gold, as the standard game, or the buyer
// may pay with gold for a gem or pearl it holds (phase pay).
var Game = turnbased.Register(&turnbased.Game[game, *game]{
	ID: ID, Version: Version, NumActions: duel.NumActions, Label: duel.Label, ObsSize: ObsSize, Layout: layout,
	MinPlayers: duel.NumPlayers, MaxPlayers: duel.NumPlayers, WinningScore: duel.PointsToWin,
	MaxShaping: maxShapingPerStep, Deal: func(_ int, seed uint64) game { return game{duel.New(seed)} },
	Payment: func(g *game) *bool { return &g.ChoosePayment }, Parse: parseChecked, Components: components,
})

// parseChecked reads a game and checks it could occur in play.
func parseChecked(text string) (game, error) {
	s, err := duel.Parse(text)
	if err == nil {
		err = s.Check()
	}
	return game{s}, err
}
