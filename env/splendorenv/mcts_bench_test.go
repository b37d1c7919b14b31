package splendorenv

import (
	"testing"

	"github.com/splendor-rl/splendor/env/bots"
	"github.com/splendor-rl/splendor/env/splendor"
	"github.com/splendor-rl/splendor/internal/rng"
)

// BenchmarkMCTSDecision: one op is one decision of the default mcts bot
// (bots.DefaultSettings) on one core, at positions 30 decisions into seeded
// greedy games (ns/op is the decision time); iterations/s is the search's
// rate.
func BenchmarkMCTSDecision(b *testing.B) {
	positions := make([]game, 16)
	for i := range positions {
		positions[i] = midgame(uint64(i), 30)
	}
	spec, _ := bots.Parse("mcts")
	r := rng.New(1)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		builtin.Act(spec, &r, &positions[i%len(positions)])
	}
	b.ReportMetric(float64(b.N*spec.Search.Iterations)/b.Elapsed().Seconds(), "iterations/s")
}

// midgame plays greedy decisions from a seeded deal, then on to the next
// position with a choice to make.
func midgame(seed uint64, decisions int) game {
	s, _ := splendor.New(2, seed)
	g := (*game)(&s)
	r := rng.New(seed)
	for i := 0; !g.Over() && (i < decisions || len(g.Legal(nil)) < 2); i++ {
		g.Play(g.Greedy(&r))
	}
	return *g
}
