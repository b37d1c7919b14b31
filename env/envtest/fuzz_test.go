package envtest_test

import (
	"strings"
	"testing"

	"github.com/splendor-rl/splendor/env"
	"github.com/splendor-rl/splendor/env/envtest"
	"github.com/stretchr/testify/require"
)

// fuzzTables are the tables the state-ops fuzzer loads states into.
var fuzzTables = []struct {
	id   string
	opts env.Options
}{
	{"splendor-v1", env.Options{"payment": "choose"}},
	{"splendor-v1", env.Options{"players": 3, "mode": "vs_bots", "seat": 1}},
	{"splendor-v1", env.Options{"players": 4, "reward": "score_diff"}},
	{"splendor-duel-v1", env.Options{"payment": "choose"}},
	{"splendor-duel-v1", env.Options{"mode": "vs_bots", "seat": 0}},
	{"climb-v0", env.Options{"players": 3}},
}

// FuzzStateOps: whatever text set_state accepts is safe for every op: the
// state reads back, the mask is empty exactly when the episode waits for a
// reset, every masked action steps, and bot advice (every bot), determinize,
// fork, views and reset neither panic nor fail. The corpus is states reached
// in play; the fuzzer mutates their text.
func FuzzStateOps(f *testing.F) {
	for k, table := range fuzzTables {
		v := playedVector(f, table.id, table.opts, 4, 7)
		states, err := v.States(nil)
		require.NoError(f, err)
		for _, s := range states {
			f.Add(uint8(k), s)
		}
	}
	f.Fuzz(func(t *testing.T, table uint8, text string) {
		tb := fuzzTables[int(table)%len(fuzzTables)]
		v, err := env.Make(tb.id, 2, tb.opts, 1, nil)
		require.NoError(t, err)
		if v.SetStates([]int{0}, []string{text}) != nil {
			return
		}
		envtest.CheckStateOps(t, v)
	})
}

// playedVector is n envs of id played steps random legal steps.
func playedVector(t testing.TB, id string, opts env.Options, n, steps int) *env.Vector {
	v, err := env.Make(id, n, opts, 3, nil)
	require.NoError(t, err)
	require.NoError(t, v.Reset(nil, nil))
	actions := make([]int32, n)
	for step := range steps {
		for i := range actions {
			actions[i] = firstLegal(v.Mask[i*v.Spec.NumActions:(i+1)*v.Spec.NumActions], step)
		}
		require.NoError(t, v.Step(actions))
	}
	return v
}

// firstLegal is the k-th legal action, counting round the mask (0: none).
func firstLegal(mask []uint8, k int) int32 {
	var legal []int32
	for a, m := range mask {
		if m == 1 {
			legal = append(legal, int32(a))
		}
	}
	if len(legal) == 0 {
		return 0
	}
	return legal[k%len(legal)]
}

// The states the fuzzer starts from pass the ops check as they are.
func TestStateOpsOnPlayedStates(t *testing.T) {
	for _, tb := range fuzzTables {
		v := playedVector(t, tb.id, tb.opts, 4, 40)
		for i := range v.Len() {
			w, err := env.Make(tb.id, 2, tb.opts, 1, nil)
			require.NoError(t, err)
			states, err := v.States([]int{i})
			require.NoError(t, err)
			require.NoError(t, w.SetStates([]int{0}, states))
			envtest.CheckStateOps(t, w)
		}
	}
}

// The probe of issue 22: a mid-game state rewritten to phase=over used to
// be accepted, leaving an env with no legal move whose bots panicked.
func TestSetStateRefusesAnEndedPhaseMidGame(t *testing.T) {
	for _, id := range []string{"splendor-v1", "splendor-duel-v1"} {
		v := playedVector(t, id, nil, 1, 6)
		states, err := v.States(nil)
		require.NoError(t, err)
		require.Contains(t, states[0], "phase=main")
		over := strings.Replace(states[0], "phase=main", "phase=over", 1)
		require.ErrorIs(t, v.SetStates(nil, []string{over}), env.ErrBadState, id)
	}
}
