package splendorenv_test

import (
	"testing"

	"github.com/splendor-rl/splendor/env"
	"github.com/splendor-rl/splendor/env/splendorenv"
	"github.com/splendor-rl/splendor/internal/rng"
)

// benchmarkVector: one op is one batched step of 1024 envs (random legal
// actions chosen outside the timer's interest but inside the loop, as a
// client would).
func benchmarkVector(b *testing.B, opts env.Options) {
	const n = 1024
	v, err := env.Make(splendorenv.ID, n, opts, 1, nil)
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

func BenchmarkVectorSelfPlay(b *testing.B) { benchmarkVector(b, nil) }

func BenchmarkVectorVsRandom(b *testing.B) { benchmarkVector(b, env.Options{"mode": "vs_bots"}) }

func BenchmarkVectorVsGreedy(b *testing.B) {
	benchmarkVector(b, env.Options{"mode": "vs_bots", "bots": "greedy"})
}

func BenchmarkVectorFloat32(b *testing.B) { benchmarkVector(b, env.Options{"obs_dtype": "float32"}) }
