package envtest

import (
	"slices"
	"testing"

	"github.com/splendor-rl/splendor/env"
	"github.com/splendor-rl/splendor/env/bots"
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

// BenchmarkGuided times env id's guided searches in process: one op is a
// search of 1024 envs of 32 Gumbel simulations each, its leaves answered
// by uniform priors over their masks and value 0, so that ns/op is the
// server's own share of a search over the wire (tree work, observations,
// checks), without the wire and the network.
func BenchmarkGuided(b *testing.B, id string) {
	const n, sims = 1024, 32
	v, err := env.Make(id, n, nil, 1, nil)
	if err != nil {
		b.Fatal(err)
	}
	if err := v.Reset(nil, nil); err != nil {
		b.Fatal(err)
	}
	set := bots.DefaultGuided
	set.Simulations = sims
	var priors, values []float32
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		g, err := v.StartGuided(nil, set, uint64(i), nil)
		if err != nil {
			b.Fatal(err)
		}
		for !g.Done() {
			priors, values = uniform(priors, values, g.LeafMask, len(g.LeafEnvs))
			if err := g.Evaluate(priors, values); err != nil {
				b.Fatal(err)
			}
		}
		g.Close()
	}
	b.ReportMetric(float64(b.N*n*sims)/b.Elapsed().Seconds(), "simulations/s")
}

// uniform is an evaluation of leaves leaves: priors their masks, values 0.
func uniform(priors, values []float32, mask []uint8, leaves int) ([]float32, []float32) {
	values = slices.Grow(values[:0], leaves)[:leaves]
	clear(values)
	priors = priors[:0]
	for _, m := range mask {
		priors = append(priors, float32(m))
	}
	return priors, values
}
