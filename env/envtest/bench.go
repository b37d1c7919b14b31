package envtest

import (
	"testing"

	"github.com/splendor-rl/splendor/env"
	"github.com/splendor-rl/splendor/internal/rng"
)

// BenchmarkVectors times env id's in-process steps in self-play, against
// random and greedy bots, with float32 observations, and in self-play with
// the block of derived values (features: derived).
func BenchmarkVectors(b *testing.B, id string) {
	for _, c := range []struct {
		name string
		opts env.Options
	}{
		{"SelfPlay", nil}, {"VsRandom", env.Options{"mode": "vs_bots"}},
		{"VsGreedy", env.Options{"mode": "vs_bots", "bots": "greedy"}}, {"Float32", env.Options{"obs_dtype": "float32"}},
		{"Features", env.Options{"features": "derived"}},
	} {
		b.Run(c.name, func(b *testing.B) { benchmarkVector(b, id, c.opts) })
	}
}

// benchmarkVector times batched steps of 1024 envs of id with opts: one op
// is one step, random legal actions drawn inside the loop as a client would.
func benchmarkVector(b *testing.B, id string, opts env.Options) {
	const n = 1024
	v, err := env.Make(id, n, opts, 1, nil)
	if err != nil {
		b.Fatal(err)
	}
	if err := v.Reset(nil, nil); err != nil {
		b.Fatal(err)
	}
	r := rng.New(2)
	actions := make([]int32, n)
	na := v.Spec.NumActions
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for k := range actions {
			actions[k] = env.SampleLegal(v.Mask[k*na:(k+1)*na], &r)
		}
		if err := v.Step(actions); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N*n)/b.Elapsed().Seconds(), "env-steps/s")
}
