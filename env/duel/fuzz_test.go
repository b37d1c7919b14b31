package duel_test

import (
	"testing"

	"github.com/splendor-rl/splendor/env/duel"
	"github.com/splendor-rl/splendor/internal/rng"
)

// outOfRange is how far past the action space fuzzed indices reach, so that
// Apply's range check is exercised as well as its legality check.
const outOfRange = 16

// FuzzApply drives a dealt game with arbitrary action indices and holds Apply
// to its contract: it never panics, it succeeds exactly for the indices in the
// legal mask, and a rejected index wraps ErrIllegal and changes nothing (the
// server relies on that to reject a whole batch without side effects). Each
// input byte pair is one index, so every index of the space is reachable.
// Odd seeds play the "choose payment" variant.
func FuzzApply(f *testing.F) {
	f.Add(uint64(1), []byte{})
	// Actions of every follow-up kind, which the opening position forbids.
	f.Add(uint64(2), indices(170, 196, 208, 223, 226, 231, 256, 262, 266, 273, 274, 280, 281, 296, 0xffff))
	f.Add(uint64(7), indices(183, 196, 12, 0, 1, 2, 97, 98, 145))
	// Whole random games reach every phase and the end, which arbitrary
	// bytes rarely do.
	for _, seed := range []uint64{3, 11, 29} {
		f.Add(seed, legalGame(seed))
	}
	f.Fuzz(func(t *testing.T, seed uint64, actions []byte) {
		s := deal(seed)
		for k := 0; k+1 < len(actions); k += 2 {
			i := (int(actions[k])<<8 | int(actions[k+1])) % (duel.NumActions + outOfRange)
			engine.CheckApply(t, &s, i)
		}
	})
}

// deal deals the fuzzed game: odd seeds play the "choose payment" variant.
func deal(seed uint64) duel.State {
	s := duel.New(seed)
	s.ChoosePayment = seed%2 == 1
	return s
}

// indices encodes action indices as fuzz input, two bytes each.
func indices(is ...int) []byte {
	b := make([]byte, 0, 2*len(is))
	for _, i := range is {
		b = append(b, byte(i>>8), byte(i))
	}
	return b
}

// legalGame plays the game dealt from seed to the end with uniformly random
// legal decisions and returns them as fuzz input.
func legalGame(seed uint64) []byte {
	s, r := deal(seed), rng.New(seed)
	return indices(engine.Decisions(&s, &r)...)
}

// FuzzParse holds Parse to never panicking, and to reading back exactly any
// state it accepts.
func FuzzParse(f *testing.F) {
	engine.Fuzz(f, engine.CheckParsed, pos(), duel.New(5).String(),
		pos("phase=joker", "pending=25", "p0=0000000|0|4.9.25|-|-"),
		pos("p0=0000000|0|31.25w.54.64b|*1.2|1.3"),
		pos(choose, "phase=pay", "pending=29:000301", "p0=0003011|0|-|*23|-"))
}

// FuzzCheckedState mutates the notation of states reached in play: any text
// that Parse and Check accept must be safe for every op (see
// rulestest.CheckSafe).
func FuzzCheckedState(f *testing.F) { engine.Fuzz(f, engine.CheckSafe, engine.Seeds(deals(3))...) }
