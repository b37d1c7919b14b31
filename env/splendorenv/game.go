package splendorenv

import "github.com/splendor-rl/splendor/env/splendor"

// game is the engine's state as the env and the bots see it
// (turnbased.Rules): the engine's own methods, and the env's observation
// (observe.go), view (view.go) and greedy bot (bots.go).
type game struct{ splendor.State }

func (g *game) state() *splendor.State { return &g.State }
