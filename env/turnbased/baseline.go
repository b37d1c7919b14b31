package turnbased

import (
	"github.com/splendor-rl/splendor/env"
	"github.com/splendor-rl/splendor/env/bots"
	"github.com/splendor-rl/splendor/internal/rng"
)

// setBaseline makes b the baseline bots of edition at g's tables of
// players seats (env.Game.SetBaseline). The bot observes as the env b was
// trained in does, its features block included, whatever the options of
// the env it plays in.
func (g *Game[S, G]) setBaseline(players int, edition uint8, b *env.Baseline) {
	if b == nil {
		g.baselines[edition][players].Store(nil)
		return
	}
	c := g.readConfig(env.NewOptionReader(b.Options)) // checked by env.SetBaselines
	g.baselines[edition][players].Store(bots.NewNetBot(b.Network, g.leafObservers[Flag(c.features)], &g.guides))
}

// canPlay refuses a baseline bot at a table size without its network.
func (g *Game[S, G]) canPlay(bot bots.Spec, players int) error {
	if bot.Kind == bots.Baseline && g.baselines[bot.Edition][players].Load() == nil {
		edition := ""
		if bot.Edition > 0 {
			edition = bots.Editions()[bot.Edition-1]
		}
		return env.NoBaseline(g.ID, players, edition)
	}
	return nil
}

// CanPlay refuses a bot the env does not have (env.Advisor).
func (e *Env[S, G]) CanPlay(bot bots.Spec) error { return e.game.canPlay(bot, e.c.players) }

// act is bot's choice for the seat to play, drawing from r, with a
// search's targets where asked (bots.Targets).
func (e *Env[S, G]) act(bot bots.Spec, r *rng.Rand, t bots.Targets) (action int) {
	switch bot.Kind { // plain bots first: vs_bots seats ask at every move
	case bots.Random, bots.Greedy:
		return e.game.bots.ActUntil(bot, r, &e.s, e.stop)
	case bots.Baseline:
		return e.game.baselines[bot.Edition][e.c.players].Load().Act(bot, r, &e.s, e.stop, t)
	}
	if set, ok := bot.Guided(); ok {
		return e.game.guides.Play(set, &e.s, r.Uint64(), e.stop, t)
	}
	if !t.Asked() {
		return e.game.bots.ActUntil(bot, r, &e.s, e.stop)
	}
	return e.game.bots.Targets(bot.Search, r, &e.s, e.stop, t)
}
