package turnbased

import "github.com/splendor-rl/splendor/env/bots"

// GuidedSearch starts a guided search of the game on the table for its
// seat to play, drawing from seed (env.Guider); the env does not change.
// A playout search stops early once the batch's stop is set.
func (e *Env[S, G]) GuidedSearch(set bots.GuidedSettings, seed uint64) bots.Search {
	return e.game.guides.Start(set, &e.s, seed, e.stop, e.game.leafObservers[Flag(e.c.features)])
}

// observeLeaves makes the leaf observers, without and with the features
// block, once per game: a closure made per search would allocate.
func (g *Game[S, G]) observeLeaves() {
	for i, features := range []bool{false, true} {
		g.leafObservers[i] = func(obs []uint8, s *S, me int) { g.observe(features, obs, s, me, me) }
	}
}
