// Package rulestest is the test kit the rules engines (env/splendor,
// env/duel) share: scripted rule cases in the text notation, golden
// playthroughs, fuzz bodies, random simulations with the engine's
// invariants, and the action table's checks. It is generic over an engine's
// State and ActionSet, so a new game's tests are its cases and nothing
// else. Only tests import it; it uses the testing package alone (internal/
// imports nothing outside the standard library).
package rulestest

import (
	"testing"

	"github.com/splendor-rl/splendor/internal/rng"
)

// State is what the kit needs of an engine's state: S is a plain value
// (assigning it clones the game) and *S has these methods.
type State[S, M any] interface {
	*S
	Legal(m *M)
	Apply(i int) error
	Over() bool
	Check() error
	Redeal(seat int, r *rng.Rand)
	String() string
}

// ActionSet is what the kit needs of an engine's set of action indices.
type ActionSet[M any] interface {
	*M
	Add(i int)
	Has(i int) bool
	Len() int
	Nth(k int) int
}

// Engine describes a rules engine to the kit: its functions and errors.
// S and M are the engine's State and ActionSet; PS and PM their pointers.
type Engine[S comparable, M comparable, PS State[S, M], PM ActionSet[M]] struct {
	NumActions  int
	Parse       func(text string) (S, error)
	ParseAction func(label string) (int, error)
	Label       func(i int) string
	ErrIllegal  error
	ErrNotation error
	// Seats is the number of seats of s, for the seats Redeal is tried with.
	Seats func(s *S) int
}

// Legal is the legal set of s.
func (e *Engine[S, M, PS, PM]) Legal(s *S) M {
	var m M
	PS(s).Legal(&m)
	return m
}

// Random is a uniformly random legal action of s, drawn from r.
func (e *Engine[S, M, PS, PM]) Random(s *S, r *rng.Rand) int {
	m := e.Legal(s)
	return PM(&m).Nth(r.Intn(PM(&m).Len()))
}

// Decisions plays s to the end with uniformly random legal decisions and
// returns them, in order. (The benchmarks play their own loops: calls
// through the kit's type parameters are indirect and the sets escape.)
func (e *Engine[S, M, PS, PM]) Decisions(s *S, r *rng.Rand) []int {
	var played []int
	for !PS(s).Over() {
		i := e.Random(s, r)
		if err := PS(s).Apply(i); err != nil {
			panic(err)
		}
		played = append(played, i)
	}
	return played
}

// Midgame is s after up to decisions random decisions drawn from rng.New(seed).
func (e *Engine[S, M, PS, PM]) Midgame(s S, seed uint64, decisions int) S {
	r := rng.New(seed)
	for i := 0; i < decisions && !PS(&s).Over(); i++ {
		_ = PS(&s).Apply(e.Random(&s, &r))
	}
	return s
}

// MustParse parses text, failing the test on an error.
func (e *Engine[S, M, PS, PM]) MustParse(t testing.TB, text string) S {
	t.Helper()
	s, err := e.Parse(text)
	if err != nil {
		t.Fatalf("Parse(%q): %v", text, err)
	}
	return s
}

// Index is the action labelled label, failing the test when there is none.
func (e *Engine[S, M, PS, PM]) Index(t testing.TB, label string) int {
	t.Helper()
	i, err := e.ParseAction(label)
	if err != nil {
		t.Fatalf("%v", err)
	}
	return i
}

// Play applies actions by label, failing the test on the first error.
func (e *Engine[S, M, PS, PM]) Play(t testing.TB, s *S, labels ...string) {
	t.Helper()
	for _, l := range labels {
		if err := PS(s).Apply(e.Index(t, l)); err != nil {
			t.Fatalf("%s in %s: %v", l, PS(s), err)
		}
	}
}

// LegalLabels lists the labels of the legal actions in index order.
func (e *Engine[S, M, PS, PM]) LegalLabels(s *S) []string {
	m := e.Legal(s)
	labels := []string{}
	for k := 0; k < PM(&m).Len(); k++ {
		labels = append(labels, e.Label(PM(&m).Nth(k)))
	}
	return labels
}

// BenchLegal times Legal on states in turn, allocations reported: each
// engine's BenchmarkLegal.
func (e *Engine[S, M, PS, PM]) BenchLegal(b *testing.B, states []S) {
	var m M
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		PS(&states[i%len(states)]).Legal(&m)
	}
}
