package duelenv

import "github.com/splendor-rl/splendor/env/duel"

// game is the engine's state as the env and the bots see it
// (turnbased.Rules): the engine's own methods, and the env's observation
// (observe.go), view (view.go) and greedy bot (bots.go).
type game struct{ duel.State }

func (g *game) state() *duel.State { return &g.State }
