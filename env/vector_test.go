package env_test

import (
	"testing"

	"github.com/splendor-rl/splendor/env"
	_ "github.com/splendor-rl/splendor/env/splendorenv"
	"github.com/splendor-rl/splendor/internal/rng"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const id = "splendor-v1"

func TestMakeRefusesBadRequests(t *testing.T) {
	_, err := env.Make("chess-v1", 1, nil, 0, nil)
	assert.ErrorIs(t, err, env.ErrUnknownEnv)
	_, err = env.Make(id, 0, nil, 0, nil)
	assert.ErrorIs(t, err, env.ErrBadOption)
	_, err = env.Make(id, 1, env.Options{"autoreset": "sometimes"}, 0, nil)
	assert.ErrorIs(t, err, env.ErrBadOption)
	_, err = env.Make(id, 1, env.Options{"obs_dtype": "float64"}, 0, nil)
	assert.ErrorIs(t, err, env.ErrBadOption)
	_, err = env.Make(id, 1, env.Options{"playerz": 2}, 0, nil)
	assert.ErrorIs(t, err, env.ErrBadOption)
}

// Env i of a batch made with seed s plays its first episode from s+i, the
// same game a batch of one made with seed s+i plays.
func TestBatchSeedsAreBasePlusIndex(t *testing.T) {
	v, err := env.Make(id, 4, nil, 100, nil)
	require.NoError(t, err)
	assert.Equal(t, []uint64{100, 101, 102, 103}, v.Seeds())
	single, err := env.Make(id, 1, nil, 102, nil)
	require.NoError(t, err)
	size := v.Spec.ObsSize()
	assert.Equal(t, single.Obs, v.Obs[2*size:3*size])
}

func TestResetContinuesEachEnvsSeedSequence(t *testing.T) {
	v, err := env.Make(id, 2, nil, 7, nil)
	require.NoError(t, err)
	require.NoError(t, v.Reset(nil, nil))
	assert.Equal(t, []uint64{rng.Derive(7, 1), rng.Derive(8, 1)}, v.Seeds())
	require.NoError(t, v.Reset([]int{1}, []uint64{42}))
	assert.Equal(t, []uint64{rng.Derive(7, 1), 42}, v.Seeds())
	assert.ErrorIs(t, v.Reset([]int{2}, nil), env.ErrBadShape)
	assert.ErrorIs(t, v.Reset([]int{0, 1}, []uint64{1}), env.ErrBadShape)
}

// Parallel stepping is invisible: one worker and two give the same bytes.
func TestWorkersDoNotChangeResults(t *testing.T) {
	one := env.NewPool(1)
	two := env.NewPool(2)
	defer one.Close()
	defer two.Close()
	a, err := env.Make(id, 64, nil, 3, one)
	require.NoError(t, err)
	b, err := env.Make(id, 64, nil, 3, two)
	require.NoError(t, err)
	r := rng.New(1)
	actions := make([]int32, 64)
	na := a.Spec.NumActions
	for step := 0; step < 300; step++ {
		for i := range actions {
			actions[i] = env.SampleLegal(a.Mask[i*na:(i+1)*na], &r)
		}
		require.NoError(t, a.Step(actions))
		require.NoError(t, b.Step(actions))
		require.Equal(t, a.Obs, b.Obs)
		require.Equal(t, a.Rewards, b.Rewards)
		require.Equal(t, a.Terminated, b.Terminated)
	}
}

func TestActionErrorNamesEveryOffendingEnv(t *testing.T) {
	v, err := env.Make(id, 3, nil, 1, nil)
	require.NoError(t, err)
	err = v.Step([]int32{-1, 0, 71}) // out of range, legal take, pass (not legal at the start)
	var ae *env.ActionError
	require.ErrorAs(t, err, &ae)
	assert.Equal(t, []int{0, 2}, ae.Envs)
	assert.ErrorIs(t, err, env.ErrIllegalAction)
}

func TestOptionNumbersOfAnyType(t *testing.T) {
	for _, players := range []any{3, int8(3), uint16(3), int64(3), uint64(3), float32(3), 3.0} {
		v, err := env.Make(id, 1, env.Options{"players": players}, 0, nil)
		require.NoError(t, err, "%T", players)
		assert.Equal(t, 3, v.Spec.Players)
	}
	for _, players := range []any{3.5, uint64(1 << 63), "3", true} {
		_, err := env.Make(id, 1, env.Options{"players": players}, 0, nil)
		assert.ErrorIs(t, err, env.ErrBadOption, "%T %v", players, players)
	}
}

func TestSampleLegal(t *testing.T) {
	r := rng.New(1)
	assert.Equal(t, int32(0), env.SampleLegal([]uint8{0, 0, 0}, &r))
	counts := map[int32]int{}
	for i := 0; i < 3000; i++ {
		counts[env.SampleLegal([]uint8{0, 1, 0, 1, 1}, &r)]++
	}
	assert.Len(t, counts, 3)
	for _, a := range []int32{1, 3, 4} {
		assert.InDelta(t, 1000, counts[a], 150)
	}
}
