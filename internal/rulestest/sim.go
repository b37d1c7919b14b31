package rulestest

import (
	"strings"
	"testing"

	"github.com/splendor-rl/splendor/internal/rng"
)

// Games is how many games a simulation plays: full, or 30 with -short.
func Games(full int) int {
	if testing.Short() {
		return 30
	}
	return full
}

// Simulate plays each dealt game to the end with uniformly random legal
// decisions drawn from rng.New(seed+1000), seed being the game's index in
// games. Before every decision and on the final state it holds the
// engine's invariants (CheckInvariants: so every state played passes
// Check, as does its notation parsed back), then calls check, the game's
// own.
func (e *Engine[S, M, PS, PM]) Simulate(t *testing.T, games []S, check func(t *testing.T, s *S)) {
	t.Helper()
	for seed, s := range games {
		r := rng.New(uint64(seed) + 1000)
		for n := 0; !PS(&s).Over(); n++ {
			if n >= maxPlaythrough {
				t.Fatalf("game %d does not end", seed)
			}
			e.CheckInvariants(t, &s)
			check(t, &s)
			if err := PS(&s).Apply(e.Random(&s, &r)); err != nil {
				t.Fatal(err)
			}
		}
		e.CheckInvariants(t, &s)
		check(t, &s)
	}
}

// CheckInvariants holds what every engine promises in every state: Check
// accepts it, the notation reads it back, the mask is exactly the set of
// indices Apply accepts and is empty exactly when the game is over, a
// refused action changes nothing, and playing on a clone leaves the
// original as it was.
func (e *Engine[S, M, PS, PM]) CheckInvariants(t *testing.T, s *S) {
	t.Helper()
	if err := PS(s).Check(); err != nil {
		t.Fatalf("Check in %s: %v", PS(s), err)
	}
	e.ReadsBack(t, *s)
	text := PS(s).String()
	m := e.Legal(s)
	if PS(s).Over() != (PM(&m).Len() == 0) {
		t.Fatalf("mask emptiness vs game over in %s", PS(s))
	}
	for i := 0; i < e.NumActions; i++ {
		c := *s
		err := PS(&c).Apply(i)
		if PM(&m).Has(i) != (err == nil) {
			t.Fatalf("%q: mask %v, apply error %v in %s", e.Label(i), PM(&m).Has(i), err, PS(s))
		}
		if err != nil && c != *s {
			t.Fatalf("refused %q changed the state %s", e.Label(i), PS(s))
		}
	}
	if PS(s).String() != text {
		t.Fatalf("playing on clones changed the original %s", text)
	}
}

// CheckRefuses applies each fault, by name, to base, which Check accepts,
// and requires Check's error to contain what the fault returns.
func (e *Engine[S, M, PS, PM]) CheckRefuses(t *testing.T, base S, faults map[string]func(s *S) string) {
	if err := PS(&base).Check(); err != nil {
		t.Fatalf("Check of the base state %s: %v", PS(&base), err)
	}
	for name, edit := range faults {
		t.Run(name, func(t *testing.T) {
			s := base
			want := edit(&s)
			err := PS(&s).Check()
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Fatalf("Check = %v, want an error containing %q", err, want)
			}
		})
	}
}

// CheckRefusesText requires that each text, by name, is refused by Parse or
// by Check: a state that passes both must be safe for every op, so every
// phase the position contradicts must be caught by one of them.
func (e *Engine[S, M, PS, PM]) CheckRefusesText(t *testing.T, texts map[string]string) {
	for name, text := range texts {
		s, err := e.Parse(text)
		if err == nil {
			err = PS(&s).Check()
		}
		if err == nil {
			t.Errorf("%s: Parse and Check accept %s", name, text)
		}
	}
}

// Reach plays the games with random decisions, as Simulate does, and
// returns the first state for which want holds, failing the test if none.
func (e *Engine[S, M, PS, PM]) Reach(t *testing.T, games []S, want func(s *S) bool) S {
	t.Helper()
	for seed, s := range games {
		r := rng.New(uint64(seed) + 1000)
		for !want(&s) && !PS(&s).Over() {
			if err := PS(&s).Apply(e.Random(&s, &r)); err != nil {
				t.Fatal(err)
			}
		}
		if want(&s) {
			return s
		}
	}
	t.Fatalf("no game reached the state wanted")
	return games[0]
}
