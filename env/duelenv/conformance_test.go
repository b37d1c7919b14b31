package duelenv_test

import (
	"testing"

	"github.com/splendor-rl/splendor/env"
	"github.com/splendor-rl/splendor/env/duelenv"
	"github.com/splendor-rl/splendor/env/envtest"
	"github.com/splendor-rl/splendor/env/turnbased"
)

// maxDecisionsPerTurn bounds one turn's decisions: three privilege uses, a
// replenish, the mandatory action, a reserve or up to 3 pay decisions (one
// per gold held) and a joker, a token or steal, a royal, up to 3 returns —
// 15 — and an extra turn doubles it.
const maxDecisionsPerTurn = 30

// Every case runs under the three autoreset modes in envtest's
// AutoresetModes, same_step included (so "choose payment" is checked with
// it); a case made with autoreset same_step would fail RandomSimulation,
// which expects an ended env's mask to be empty.

// smallMCTS is a search bot cheap enough to play thousands of decisions.
const smallMCTS = "mcts:iterations=3,rollout=random"

func TestConformance(t *testing.T) {
	cases := map[string]env.Options{
		"self-play":                                 nil,
		"self-play score_diff":                      {"reward": "score_diff"},
		"vs greedy bot":                             {"mode": "vs_bots", "bots": "greedy"},
		"vs random bot, seat 1":                     {"mode": "vs_bots", "seat": 1, "reward": "score_diff"},
		"short turn limit truncates":                {"max_rounds": 10},
		"forfeit policy changes nothing when legal": {"illegal_action": "forfeit"},
		"choose payment":                            {"payment": "choose"},
		"choose payment vs greedy bot":              {"payment": "choose", "mode": "vs_bots", "bots": "greedy"},
		"choose payment vs random bot, seat 0":      {"payment": "choose", "mode": "vs_bots", "seat": 0},
		"choose payment, forfeit policy":            {"payment": "choose", "illegal_action": "forfeit"},
		"choose payment vs a small mcts bot":        {"payment": "choose", "mode": "vs_bots", "bots": smallMCTS},
	}
	for name, opts := range cases {
		t.Run(name, func(t *testing.T) {
			rounds := turnbased.DefaultMaxRounds
			if r, ok := opts["max_rounds"].(int); ok {
				rounds = r
			}
			envtest.Run(t, envtest.Case{ID: duelenv.ID, Options: opts, NumEnvs: 4,
				MaxEpisodeSteps: rounds * 2 * maxDecisionsPerTurn})
		})
	}
}
