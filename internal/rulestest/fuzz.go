package rulestest

import (
	"errors"
	"testing"

	"github.com/splendor-rl/splendor/internal/rng"
)

// CheckApply applies index i to s and holds Apply to its contract against
// the legal set computed beforehand: it succeeds exactly for the legal
// indices, and a rejected index wraps ErrIllegal and changes nothing (the
// server relies on that to reject a whole batch without side effects).
func (e *Engine[S, M, PS, PM]) CheckApply(t testing.TB, s *S, i int) {
	t.Helper()
	legal := e.Legal(s)
	before := *s
	wasLegal := i >= 0 && i < e.NumActions && PM(&legal).Has(i)
	err := PS(s).Apply(i)
	switch {
	case err == nil && !wasLegal:
		t.Fatalf("Apply(%d) succeeded but it was not legal in %s", i, PS(&before))
	case err != nil && wasLegal:
		t.Fatalf("Apply(%d) = %v but it was legal in %s", i, err, PS(&before))
	case err != nil && !errors.Is(err, e.ErrIllegal):
		t.Fatalf("Apply(%d) = %v, which does not wrap %v", i, err, e.ErrIllegal)
	case err != nil && *s != before:
		t.Fatalf("rejected Apply(%d) changed the state:\nbefore %s\nafter  %s", i, PS(&before), PS(s))
	}
}

// Fuzz runs a fuzz test of check (CheckParsed or CheckSafe) from the seed
// texts.
func (e *Engine[S, M, PS, PM]) Fuzz(f *testing.F, check func(t *testing.T, text string), seeds ...string) {
	for _, text := range seeds {
		f.Add(text)
	}
	f.Fuzz(check)
}

// CheckParsed holds Parse to its contract for any text: it never panics,
// and a state it accepts reads back exactly, with a legal action unless the
// game is over.
func (e *Engine[S, M, PS, PM]) CheckParsed(t *testing.T, text string) {
	t.Helper()
	s, err := e.Parse(text)
	if err != nil {
		return
	}
	back, err := e.Parse(PS(&s).String())
	if err != nil || back != s {
		t.Fatalf("accepted %q but its notation %q reads back as %v, %v", text, PS(&s), PS(&back), err)
	}
	m := e.Legal(&s)
	if PS(&s).Over() != (PM(&m).Len() == 0) {
		t.Fatalf("parsed state %s: mask emptiness vs game over", PS(&s))
	}
}

// CheckSafe holds a state that passes Parse and Check to be safe for every
// op, as the server relies on: it reads back exactly, has a legal action
// unless the game is over, every legal action applies, and it redeals for
// every seat (a panic fails the fuzz test as well).
func (e *Engine[S, M, PS, PM]) CheckSafe(t *testing.T, text string) {
	s, err := e.Parse(text)
	if err != nil || PS(&s).Check() != nil {
		return
	}
	e.ReadsBack(t, s)
	m := e.Legal(&s)
	if PS(&s).Over() != (PM(&m).Len() == 0) {
		t.Fatalf("checked state %s: %d legal actions, over %v", PS(&s), PM(&m).Len(), PS(&s).Over())
	}
	for k := 0; k < PM(&m).Len(); k++ {
		c := s
		if err := PS(&c).Apply(PM(&m).Nth(k)); err != nil {
			t.Fatalf("legal %q in %s: %v", e.Label(PM(&m).Nth(k)), PS(&s), err)
		}
	}
	for seat := 0; seat < e.Seats(&s); seat++ {
		c, r := s, rng.New(uint64(seat))
		PS(&c).Redeal(seat, &r)
	}
}

// Seeds are the notations of every tenth state of the games played with
// random decisions: real positions for a fuzzer to mutate.
func (e *Engine[S, M, PS, PM]) Seeds(games []S) []string {
	var seeds []string
	for seed, s := range games {
		r := rng.New(uint64(seed))
		for n := 0; ; n++ {
			if n%10 == 0 || PS(&s).Over() {
				seeds = append(seeds, PS(&s).String())
			}
			if PS(&s).Over() {
				break
			}
			_ = PS(&s).Apply(e.Random(&s, &r))
		}
	}
	return seeds
}
