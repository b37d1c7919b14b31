package env_test

import (
	"runtime"
	"runtime/debug"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/splendor-rl/splendor/env"
	"github.com/splendor-rl/splendor/env/bots"
)

// A guided search's rounds allocate nothing once warm: once the same search
// before it grew the pooled trees (a tree a search draws from the pool may
// be smaller than the one its env had, so the same search runs several
// times, the garbage collector off so that it empties no pool), none of its
// 33 rounds allocates, whole rows or packed (its masks as bits, the priors
// of the legal actions alone), in float32 envs too. A round's allocation
// would show as 33 or more; the pool's wake-ups may allocate now and then.
func TestGuidedRoundsAllocateNothingOnceWarm(t *testing.T) {
	if raceEnabled {
		t.Skip("under -race sync.Pool drops items at random; make test also runs this test without it")
	}
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	for _, c := range []struct {
		id     string
		opts   env.Options
		packed bool
	}{{"splendor-v1", nil, false}, {"splendor-v1", nil, true}, {"splendor-duel-v1", nil, false}, {"splendor-duel-v1", env.Options{"obs_dtype": "float32"}, true}} {
		v, err := env.Make(c.id, 32, c.opts, 3, nil)
		require.NoError(t, err)
		require.NoError(t, v.Reset(nil, nil))
		set := bots.DefaultGuided
		set.Simulations = 32
		var priors, values, legal []float32
		var bits []uint8
		search := func(b *env.GuidedBatch) {
			for !b.Done() {
				priors, values = uniformEvaluation(b, priors, values)
				if !c.packed {
					require.NoError(t, b.Evaluate(priors, values))
					continue
				}
				bits = b.PackedMasks(bits[:0])
				legal = legal[:0]
				for i, m := range b.LeafMask {
					if m == 1 {
						legal = append(legal, priors[i])
					}
				}
				require.NoError(t, b.EvaluateLegal(legal, values))
			}
			b.Close()
		}
		var allocs []uint64
		for range 8 {
			b, err := v.StartGuided(nil, set, 5, nil)
			require.NoError(t, err)
			allocs = append(allocs, mallocs(func() { search(b) }))
		}
		require.LessOrEqual(t, slices.Min(allocs[5:]), uint64(2), "%s packed %v: allocations of each search: %v", c.id, c.packed, allocs)
	}
}

// mallocs counts the heap allocations f makes, run once (testing's
// AllocsPerRun runs it twice: a search's second run has no rounds left).
func mallocs(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.Mallocs - before.Mallocs
}

// uniformEvaluation is uniform priors over each leaf's legal actions and
// value 0, in the buffers given.
func uniformEvaluation(b *env.GuidedBatch, priors, values []float32) ([]float32, []float32) {
	priors, values = priors[:0], values[:0]
	for _, m := range b.LeafMask {
		priors = append(priors, float32(m))
	}
	for range b.LeafEnvs {
		values = append(values, 0)
	}
	return priors, values
}
