package turnbased

import "github.com/splendor-rl/splendor/env/bots"

// GuidedSearch starts a guided search of the game on the table for its
// seat to play, drawing from seed (env.Guider); the env does not change.
// A playout search stops early once the batch's stop is set.
func (e *Env[S, G]) GuidedSearch(set bots.GuidedSettings, seed uint64) bots.Search {
	observe := func(obs []uint8, s *S, me int) { e.game.observe(false, obs, s, me, me) }
	if e.c.features {
		observe = func(obs []uint8, s *S, me int) { e.game.observe(true, obs, s, me, me) }
	}
	return e.game.guides.Start(set, &e.s, seed, e.stop, observe)
}
