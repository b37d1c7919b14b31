package envtest

import (
	"slices"
	"strings"
	"testing"

	"github.com/splendor-rl/splendor/env"
	"github.com/splendor-rl/splendor/internal/rng"
	"github.com/stretchr/testify/require"
)

// stateRoundTrip: a batch loaded with another's states (mid-game, ended,
// forfeited alike) continues byte-identically under the same actions.
func stateRoundTrip(t *testing.T, c Case) {
	v, w := makeVector(t, c, 21, nil), makeVector(t, c, 99, nil)
	play(t, v, c.Steps/8, 3, func(int, []int32) {})
	states, err := v.States(allIDs(v))
	require.NoError(t, err)
	require.NoError(t, w.SetStates(allIDs(w), states))
	requireSameRows(t, v, w, "after set_state")
	p := newPlayers(v.Len(), 4)
	actions := make([]int32, v.Len())
	for step := 0; step < c.Steps/8; step++ {
		p.choose(v, actions)
		require.NoError(t, v.Step(actions))
		require.NoError(t, w.Step(actions))
		requireSameRows(t, v, w, "step")
	}
}

// forkCopiesEnvs: env 1 forked from env 0 plays as env 0 does.
func forkCopiesEnvs(t *testing.T, c Case) {
	v := makeVector(t, c, 23, nil)
	play(t, v, c.Steps/8, 5, func(int, []int32) {})
	require.NoError(t, v.Fork([]int{0}, []int{1}))
	a, b := strings.Split(mustStates(t, v)[0], "; ")[1], strings.Split(mustStates(t, v)[1], "; ")[1]
	require.Equal(t, a, b, "the env's whole state is copied")
	require.Error(t, v.Fork([]int{0, 2}, []int{1, 1}), "a destination listed twice")

	// Every source is read before any destination is written: a swap swaps,
	// and a chain copies what its sources held before the fork.
	play(t, v, 3, 6, func(int, []int32) {})
	before := mustStates(t, v)
	require.NoError(t, v.Fork([]int{0, 2, 3}, []int{2, 3, 0}))
	after := mustStates(t, v)
	require.Equal(t, []string{before[3], before[0], before[2]}, []string{after[0], after[2], after[3]})

	// A source may be listed more than once, its copies read before any
	// destination is written.
	require.NoError(t, v.Fork([]int{2, 1, 1}, []int{1, 2, 0}))
	require.Equal(t, []string{after[1], after[2], after[1]}, mustStates(t, v)[:3])

	// An env never dealt forks as one: no game, rows of zeros.
	fresh, err := env.Make(c.ID, 2, c.Options, 24, nil)
	require.NoError(t, err)
	require.NoError(t, fresh.Reset([]int{0}, nil))
	require.NoError(t, fresh.Fork([]int{1}, []int{0}))
	na := fresh.Spec.NumActions
	require.Equal(t, fresh.Obs[fresh.Spec.ObsSize():], fresh.Obs[:fresh.Spec.ObsSize()])
	require.Equal(t, make([]uint8, fresh.Spec.ObsSize()), fresh.Obs[:fresh.Spec.ObsSize()])
	require.Equal(t, make([]uint8, na), fresh.Mask[:na])
}

// badStatesChangeNothing: garbage and states that do not add up are refused
// with bad_state, and the batch is as it was.
func badStatesChangeNothing(t *testing.T, c Case) {
	v := makeVector(t, c, 25, nil)
	play(t, v, 7, 6, func(int, []int32) {})
	before := mustStates(t, v)
	good := before[0]
	for _, bad := range []string{"", "garbage", good[:len(good)/2], strings.Replace(good, "seed=", "seed=x", 1),
		good + " extra", strings.Replace(good, " | ", " | me=9 ", 1)} {
		err := v.SetStates([]int{1, 0}, []string{good, bad})
		require.ErrorIs(t, err, env.ErrBadState, "%q", bad)
		require.Equal(t, before, mustStates(t, v), "a refused set_state changed something")
	}
}

// determinizeKeepsTheView: redealing what the seat to play cannot see keeps
// its observation and mask.
func determinizeKeepsTheView(t *testing.T, c Case) {
	v := makeVector(t, c, 27, nil)
	play(t, v, c.Steps/8, 7, func(int, []int32) {})
	obs, mask := append([]uint8(nil), v.Obs...), append([]uint8(nil), v.Mask...)
	seeds := make([]uint64, v.Len())
	for i := range seeds {
		seeds[i] = uint64(1000 + i)
	}
	require.NoError(t, v.Determinize(allIDs(v), seeds))
	require.Equal(t, obs, v.Obs)
	require.Equal(t, mask, v.Mask)
}

// botActionsAreLegalAndSeeded: every bot's advice is legal, the same for
// the same seed however the envs are listed, and nothing is stepped.
func botActionsAreLegalAndSeeded(t *testing.T, c Case) {
	v := makeVector(t, c, 29, nil)
	play(t, v, c.Steps/8, 8, func(int, []int32) {})
	before := mustStates(t, v)
	for _, bot := range []string{"random", "greedy", "mcts:iterations=30,rollout=random"} {
		a, err := v.BotActions(nil, bot, 5, nil)
		require.NoError(t, err)
		again, err := v.BotActions(allIDs(v), bot, 5, nil)
		require.NoError(t, err)
		require.Equal(t, a, again)
		seeds := make([]uint64, v.Len())
		for i := range seeds {
			seeds[i] = rng.Derive(5, uint64(i))
		}
		ids := allIDs(v)
		slices.Reverse(ids)
		slices.Reverse(seeds)
		backwards, err := v.BotActions(ids, bot, 0, seeds)
		require.NoError(t, err)
		slices.Reverse(backwards)
		require.Equal(t, a, backwards, "env i's own seed decides its advice, wherever it is listed")
		na := v.Spec.NumActions
		for i, action := range a {
			if action >= 0 {
				require.Equal(t, uint8(1), v.Mask[i*na+int(action)], "env %d: %s advises an illegal action", i, bot)
			}
		}
	}
	_, err := v.BotActions(allIDs(v), "oracle", 5, nil)
	require.ErrorIs(t, err, env.ErrBadOption)
	_, err = v.BotActions(allIDs(v), "random", 5, []uint64{1})
	require.ErrorIs(t, err, env.ErrBadShape)
	require.Equal(t, before, mustStates(t, v))
}

func requireSameRows(t *testing.T, v, w *env.Vector, when string) {
	t.Helper()
	require.Equal(t, v.Obs, w.Obs, when)
	require.Equal(t, v.Mask, w.Mask, when)
	require.Equal(t, v.Rewards, w.Rewards, when)
	require.Equal(t, v.Terminated, w.Terminated, when)
	require.Equal(t, v.Truncated, w.Truncated, when)
	require.Equal(t, v.ToPlay, w.ToPlay, when)
}

func mustStates(t *testing.T, v *env.Vector) []string {
	states, err := v.States(allIDs(v))
	require.NoError(t, err)
	return states
}

func allIDs(v *env.Vector) []int {
	ids := make([]int, v.Len())
	for i := range ids {
		ids[i] = i
	}
	return ids
}
