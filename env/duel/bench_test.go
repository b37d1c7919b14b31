package duel_test

import (
	"testing"

	"github.com/splendor-rl/splendor/env/duel"
	"github.com/splendor-rl/splendor/internal/rng"
)

// playRandom plays s to the end with uniformly random legal decisions and
// returns the number of decisions.
func playRandom(s *duel.State, r *rng.Rand) int {
	var m duel.ActionSet
	n := 0
	for !s.Over() {
		s.Legal(&m)
		if err := s.Apply(m.Nth(r.Intn(m.Len()))); err != nil {
			panic(err)
		}
		n++
	}
	return n
}

// BenchmarkRandomGame: one op is a complete game, dealt from a fresh seed,
// with uniformly random legal decisions.
func BenchmarkRandomGame(b *testing.B) { benchmarkRandomGames(b, false) }

// BenchmarkRandomGameChoosePayment: the same in the payment variant.
func BenchmarkRandomGameChoosePayment(b *testing.B) { benchmarkRandomGames(b, true) }

func benchmarkRandomGames(b *testing.B, choose bool) {
	r := rng.New(1)
	decisions := 0
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		s := duel.New(uint64(i))
		s.ChoosePayment = choose
		decisions += playRandom(&s, &r)
	}
	b.ReportMetric(float64(decisions)/float64(b.N), "decisions/game")
}

// midgame returns a state some decisions into a seeded game.
func midgame(seed uint64, decisions int) duel.State {
	s := duel.New(seed)
	r := rng.New(seed)
	var m duel.ActionSet
	for i := 0; i < decisions && !s.Over(); i++ {
		s.Legal(&m)
		_ = s.Apply(m.Nth(r.Intn(m.Len())))
	}
	return s
}

func BenchmarkLegal(b *testing.B) {
	states := make([]duel.State, 64)
	for i := range states {
		states[i] = midgame(uint64(i), 40)
	}
	var m duel.ActionSet
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		states[i&63].Legal(&m)
	}
}

func BenchmarkApply(b *testing.B) {
	const n = 64
	var states [n]duel.State
	var actions [n]int
	for i := range states {
		states[i] = midgame(uint64(i), 40)
		var m duel.ActionSet
		states[i].Legal(&m)
		actions[i] = m.Nth(m.Len() / 2)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s := states[i&(n-1)]
		_ = s.Apply(actions[i&(n-1)])
	}
}

func BenchmarkNew(b *testing.B) {
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		_ = duel.New(uint64(i))
	}
}
