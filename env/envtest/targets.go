package envtest

import (
	"slices"
	"testing"

	"github.com/splendor-rl/splendor/env"
	"github.com/stretchr/testify/require"
)

// botTargetsAreTheSearchsVisits: an mcts bot's targets come with the very
// action BotActions advises; each policy row is a distribution over the
// legal actions whose most visited action is the one played, every seat's
// value is on the rewards' scale (the seat to play's first; they add up
// to zero), an env waiting for a reset gets −1, zeros and 0, the same seed
// gives the same targets, and a bot without a search is refused.
func botTargetsAreTheSearchsVisits(t *testing.T, c Case) {
	v, err := env.Make(c.ID, c.NumEnvs, c.Options, 31, nil)
	require.NoError(t, err)
	waiting := v.Len() - 1 // never reset: the others are searched at their first decision
	require.NoError(t, v.Reset(allIDs(v)[:waiting], nil))
	before := mustStates(t, v)
	const bot = "mcts:iterations=40,rollout=random"
	advice, err := v.BotActions(nil, bot, 5, nil)
	require.NoError(t, err)
	actions, targets, err := v.BotTargets(nil, bot, 5, nil)
	require.NoError(t, err)
	require.Equal(t, advice, actions, "asking for targets changed the advice")
	_, again, err := v.BotTargets(nil, bot, 5, nil)
	require.NoError(t, err)
	require.Equal(t, targets, again)
	na := v.Spec.NumActions
	for i, action := range actions {
		policy := targets.Policy[i*na : (i+1)*na]
		if i == waiting {
			require.Equal(t, int32(-1), action)
			require.Equal(t, make([]float32, na), policy)
			require.Zero(t, targets.Value[i])
			require.Equal(t, make([]float32, v.Spec.Players), targets.Values[i*v.Spec.Players:(i+1)*v.Spec.Players])
			continue
		}
		checkTargetRow(t, policy, v.Mask[i*na:(i+1)*na], int(action))
		players := v.Spec.Players
		seats := targets.Values[i*players : (i+1)*players]
		require.Equal(t, targets.Value[i], seats[0], "env %d: every seat's values, the seat to play's first", i)
		sum := float32(0)
		for _, value := range seats {
			require.GreaterOrEqual(t, value, -1/float32(players-1), "env %d: %v", i, seats)
			require.LessOrEqual(t, value, float32(1), "env %d: %v", i, seats)
			sum += value
		}
		require.InDelta(t, 0, sum, 1e-4, "env %d: every outcome's shares add up to 1: %v", i, seats)
	}
	_, _, err = v.BotTargets(nil, "greedy", 5, nil)
	require.ErrorIs(t, err, env.ErrBadOption)
	require.Equal(t, before, mustStates(t, v))
}

func checkTargetRow(t *testing.T, policy []float32, mask []uint8, action int) {
	t.Helper()
	sum := float32(0)
	for a, p := range policy {
		require.GreaterOrEqual(t, p, float32(0))
		if mask[a] == 0 {
			require.Zero(t, p, "action %d is illegal", a)
		}
		sum += p
	}
	require.InDelta(t, 1, sum, 1e-5)
	require.Equal(t, slices.Max(policy), policy[action], "the action played is the most visited")
}
