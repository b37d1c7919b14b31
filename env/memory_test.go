package env_test

import (
	"runtime"
	"testing"

	"github.com/splendor-rl/splendor/env"
	"github.com/stretchr/testify/require"
)

// MemoryPerEnv is what the server's memory budget counts: it must not be
// below what an env really takes, nor so far above that the budget is
// useless.
func TestMemoryPerEnvBoundsWhatMakeAllocates(t *testing.T) {
	const n = 2048
	for _, id := range env.IDs() {
		for _, opts := range []env.Options{nil, {"obs_dtype": "float32", "autoreset": "same_step"}, {"mode": "vs_bots", "bots": "greedy"}} {
			var before, after runtime.MemStats
			// Twice: the first GC moves the sync.Pools' contents (search
			// trees other tests left) to their victim caches, the second
			// frees them, so that they cannot vanish between the readings.
			runtime.GC()
			runtime.GC()
			runtime.ReadMemStats(&before)
			v, err := env.Make(id, n, opts, 1, nil)
			require.NoError(t, err)
			require.NoError(t, v.Reset(nil, nil))
			runtime.GC()
			runtime.ReadMemStats(&after)
			measured := float64(after.HeapAlloc-before.HeapAlloc) / n
			estimate := float64(v.MemoryPerEnv())
			t.Logf("%s %v: estimate %.0f measured %.0f", id, opts, estimate, measured)
			require.GreaterOrEqual(t, estimate, measured, "%s %v", id, opts)
			require.Less(t, estimate, 1.5*measured, "%s %v", id, opts)
			runtime.KeepAlive(v)
		}
	}
}
