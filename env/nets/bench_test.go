package nets_test

import (
	"math/rand/v2"
	"testing"
)

// BenchmarkEvaluate times one evaluation of a net of Splendor's sizes
// (442→256→256→78 and the value) from random weights: on an observation as
// sparse as Splendor's, and on one with every feature nonzero, the worst case.
func BenchmarkEvaluate(b *testing.B) {
	_, n := splendorSized(b)
	for _, c := range []struct {
		name    string
		density float64
	}{{"splendor-like", 0.3}, {"dense", 1}} {
		b.Run(c.name, func(b *testing.B) {
			e := n.NewEvaluator()
			obs := observation(rand.New(rand.NewPCG(6, 1)), splendorObs, c.density)
			logits, values := make([]float32, splendorActions), make([]float32, 1)
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				e.Evaluate(obs, logits, values)
			}
		})
	}
}
