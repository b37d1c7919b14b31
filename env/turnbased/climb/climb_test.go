package climb_test

import (
	"testing"

	"github.com/splendor-rl/splendor/env"
	"github.com/splendor-rl/splendor/env/envtest"
	"github.com/splendor-rl/splendor/env/turnbased"
	"github.com/splendor-rl/splendor/env/turnbased/climb"
	"github.com/stretchr/testify/require"
)

// The toy game passes the conformance suite every env passes: search ops,
// views and the bots (the mcts bot included) come with the generic env.
func TestConformance(t *testing.T) {
	for name, opts := range map[string]env.Options{
		"2 players self-play": nil,
		"3 players vs mcts":   {"players": 3, "mode": "vs_bots", "bots": "mcts:iterations=20", "reward": "score_diff"},
		"forfeit":             {"illegal_action": "forfeit"},
	} {
		t.Run(name, func(t *testing.T) {
			envtest.Run(t, envtest.Case{ID: climb.ID, Options: opts, MaxEpisodeSteps: 9 /* a decision per card */, Steps: 120})
		})
	}
}

// A 9 scores whatever was played before it; a card below the last scores
// nothing.
func TestScoring(t *testing.T) {
	e, err := turnbased.New(climb.Game, nil)
	require.NoError(t, err)
	e.Load(climb.State{Players: 2, Turn: 7, Last: 5, Hands: [3][2]uint8{{9}, {2}}, Scores: [3]uint8{11, 8}})
	require.NoError(t, e.Step(0))
	require.NoError(t, e.Step(0))
	r := make([]float32, 2)
	e.Rewards(r)
	require.Equal(t, []float32{1, -1}, r, "20 points to 8")
	require.Equal(t, climb.State{Players: 2, Turn: 9, Last: 2, Scores: [3]uint8{20, 8}}, e.State())
}
