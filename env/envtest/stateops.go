package envtest

import (
	"strings"
	"testing"

	"github.com/splendor-rl/splendor/env"
	"github.com/splendor-rl/splendor/env/tableview"
	"github.com/stretchr/testify/require"
)

// CheckStateOps runs every op on env 0 of v, a batch of two whose env 0 was
// just loaded with set_state, and fails on any error or panic: a state that
// set_state accepts must be safe for every op.
func CheckStateOps(t *testing.T, v *env.Vector) {
	t.Helper()
	states, err := v.States([]int{0})
	require.NoError(t, err)
	require.NoError(t, v.SetStates([]int{1}, states), "the state does not read back")
	for _, bot := range []string{"random", "greedy", "mcts:iterations=8"} {
		_, err := v.BotActions([]int{0}, bot, 1, nil)
		require.NoError(t, err, bot)
	}
	for viewer := tableview.Referee; viewer < v.Spec.Players; viewer++ {
		_, _, err := v.Views([]int{0}, viewer)
		require.NoError(t, err)
	}
	require.NoError(t, v.Determinize([]int{1}, []uint64{9}))
	legal := 0
	for a := range v.Spec.NumActions {
		if v.Mask[a] == 1 {
			legal++
			require.NoError(t, v.Fork([]int{0}, []int{1}))
			require.NoError(t, v.Step([]int32{int32(a), int32(a)}), "action %s", v.Spec.ActionLabels[a])
			require.NoError(t, v.SetStates([]int{0}, states))
		}
	}
	waits := strings.Contains(states[0], "pending=1") || strings.Contains(states[0], "over=1")
	require.Equal(t, waits, legal == 0, "a mask is empty exactly when its env waits for a reset: %s", states[0])
	require.NoError(t, v.Reset([]int{0}, []uint64{5}))
}
