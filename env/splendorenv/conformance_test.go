package splendorenv_test

import (
	"testing"

	"github.com/splendor-rl/splendor/env"
	"github.com/splendor-rl/splendor/env/envtest"
	"github.com/splendor-rl/splendor/env/splendorenv"
	"github.com/splendor-rl/splendor/env/turnbased"
)

// maxDecisionsPerTurn: a take (1), up to 3 returns (10 tokens + 3 taken) and
// a noble choice make 5; a buy (1) with the payment choice takes up to 5
// payment decisions (one per gold held: each pays one gem, and the last gold
// or "pay done" settles it), then a noble choice: 7. A buy never leads to
// returns, since it only lowers the seat's tokens.
const maxDecisionsPerTurn = 7

// Every case runs under the three autoreset modes in envtest's
// AutoresetModes (same_step included); a case made with autoreset same_step
// would fail RandomSimulation, which expects an ended env's mask to be empty.

func TestConformance(t *testing.T) {
	cases := map[string]env.Options{
		"2 players self-play":               nil,
		"3 players self-play score_diff":    {"players": 3, "reward": "score_diff"},
		"4 players vs greedy bots":          {"players": 4, "mode": "vs_bots", "bots": "greedy"},
		"2 players vs random, seat 1":       {"mode": "vs_bots", "seat": 1, "reward": "score_diff"},
		"short turn limit truncates":        {"players": 2, "max_rounds": 10},
		"payment choice":                    {"payment": "choose"},
		"payment choice, 3 players":         {"payment": "choose", "players": 3},
		"payment choice, 4 players":         {"payment": "choose", "players": 4, "reward": "score_diff"},
		"payment choice vs random bots":     {"payment": "choose", "players": 3, "mode": "vs_bots"},
		"payment choice vs greedy bots":     {"payment": "choose", "mode": "vs_bots", "bots": "greedy"},
		"payment choice, forfeit policy":    {"payment": "choose", "illegal_action": "forfeit"},
		"forfeit policy changes nothing ok": {"illegal_action": "forfeit"},
		"3 players vs three kinds of bots": {"players": 3, "mode": "vs_bots", "seat": 0,
			"bots": []any{"random", "greedy", "mcts:iterations=3,rollout=random"}},
	}
	for name, opts := range cases {
		t.Run(name, func(t *testing.T) {
			players, rounds := 2, turnbased.DefaultMaxRounds
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
