package splendor_test

import (
	"testing"

	"github.com/splendor-rl/splendor/env/splendor"
	"github.com/splendor-rl/splendor/internal/rng"
)

// BenchmarkRandomGame: one op is a complete 2-player game, dealt from a fresh
// seed, with uniformly random legal decisions.
//
// The state is declared before the decisions' loop, not in its for clause:
// since Go 1.22 a variable the for clause declares is a new one each
// iteration, and as the methods take its address the compiler copies the
// whole state (328 bytes) out and back at every decision, which cost this
// benchmark a fifth of its speed (issue 32).
func BenchmarkRandomGame(b *testing.B) {
	r := rng.New(1)
	var m splendor.ActionSet
	decisions := 0
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		s, _ := splendor.New(2, uint64(i))
		for ; !s.Over(); decisions++ {
			s.Legal(&m)
			if err := s.Apply(m.Nth(r.Intn(m.Len()))); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(decisions)/float64(b.N), "decisions/game")
}

// midgame returns a state some decisions into a seeded 2-player game.
func midgame(seed uint64, decisions int) splendor.State {
	s, _ := splendor.New(2, seed)
	return engine.Midgame(s, seed, decisions)
}

// midgames are 64 states 40 decisions into seeded games, for the
// benchmarks of one decision.
func midgames() (states [64]splendor.State) {
	for i := range states {
		states[i] = midgame(uint64(i), 40)
	}
	return states
}

func BenchmarkLegal(b *testing.B) {
	states := midgames()
	engine.BenchLegal(b, states[:])
}

func BenchmarkApply(b *testing.B) {
	states := midgames()
	var actions [64]int
	for i := range states {
		m := engine.Legal(&states[i])
		actions[i] = m.Nth(0)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s := states[i&63]
		_ = s.Apply(actions[i&63])
	}
}
