package splendorenv

import (
	"github.com/splendor-rl/splendor/env/bots"
	"github.com/splendor-rl/splendor/env/splendor"
	"github.com/splendor-rl/splendor/internal/rng"
)

// game is the engine's state as the env and the bots see it
// (turnbased.Rules): the engine's own methods, and the env's observation,
// view and greedy bot.
type game struct{ splendor.State }

func (g *game) state() *splendor.State { return &g.State }

// LegalSet is the engine's legal actions in the bots' set (a copy: the
// engine's set is its own type).
func (g *game) LegalSet() (legal bots.Actions) {
	g.Legal((*splendor.ActionSet)(legal[:]))
	return legal
}

func (g *game) Greedy(r *rng.Rand) int {
	var legal splendor.ActionSet
	g.Legal(&legal)
	return greedyAction(g.state(), &legal, r)
}
