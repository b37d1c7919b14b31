package splendorenv_test

import (
	"testing"

	"github.com/splendor-rl/splendor/env"
	"github.com/splendor-rl/splendor/env/envtest"
	"github.com/splendor-rl/splendor/env/splendorenv"
)

// maxDecisionsPerTurn: a main action, up to 3 returns (10 tokens + 3 taken),
// a noble choice.
const maxDecisionsPerTurn = 5

func TestConformance(t *testing.T) {
	cases := map[string]env.Options{
		"2 players self-play":            nil,
		"3 players self-play score_diff": {"players": 3, "reward": "score_diff"},
		"4 players vs greedy bots":       {"players": 4, "mode": "vs_bots", "bots": "greedy"},
		"2 players vs random, seat 1":    {"mode": "vs_bots", "seat": 1, "reward": "score_diff"},
		"short turn limit truncates":     {"players": 2, "max_rounds": 10},
	}
	for name, opts := range cases {
		t.Run(name, func(t *testing.T) {
			players, rounds := 2, splendorenv.DefaultMaxRounds
			if p, ok := opts["players"].(int); ok {
				players = p
			}
			if r, ok := opts["max_rounds"].(int); ok {
				rounds = r
			}
			envtest.Run(t, envtest.Case{ID: splendorenv.ID, Options: opts,
				MaxEpisodeSteps: rounds * players * maxDecisionsPerTurn})
		})
	}
}
