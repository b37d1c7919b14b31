package duel_test

import (
	"testing"

	"github.com/splendor-rl/splendor/env/duel"
	"github.com/splendor-rl/splendor/internal/rng"
)

// BenchmarkRandomGame: one op is a complete game, dealt from a fresh seed,
// with uniformly random legal decisions.
func BenchmarkRandomGame(b *testing.B) { benchmarkRandomGames(b, false) }

// BenchmarkRandomGameChoosePayment: the same in the payment variant.
func BenchmarkRandomGameChoosePayment(b *testing.B) { benchmarkRandomGames(b, true) }

func benchmarkRandomGames(b *testing.B, choose bool) {
	r := rng.New(1)
	var m duel.ActionSet
	decisions := 0
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		s := duel.New(uint64(i))
		for s.ChoosePayment = choose; !s.Over(); decisions++ {
			s.Legal(&m)
			if err := s.Apply(m.Nth(r.Intn(m.Len()))); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(decisions)/float64(b.N), "decisions/game")
}

// midgame returns a state some decisions into a seeded game.
func midgame(seed uint64, decisions int) duel.State {
	return engine.Midgame(duel.New(seed), seed, decisions)
}

// midgames are 64 states 40 decisions into seeded games, each with the
// legal action in the middle of its set, for the benchmarks of one
// decision.
func midgames() (states [64]duel.State, actions [64]int) {
	for i := range states {
		states[i] = midgame(uint64(i), 40)
		m := engine.Legal(&states[i])
		actions[i] = m.Nth(m.Len() / 2)
	}
	return states, actions
}

func BenchmarkLegal(b *testing.B) {
	states, _ := midgames()
	engine.BenchLegal(b, states[:])
}

func BenchmarkApply(b *testing.B) {
	states, actions := midgames()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s := states[i&63]
		_ = s.Apply(actions[i&63])
	}
}

func BenchmarkNew(b *testing.B) {
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		_ = duel.New(uint64(i))
	}
}
