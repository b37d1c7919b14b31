package splendor_test

import (
	"testing"

	"github.com/splendor-rl/splendor/env/splendor"
	"github.com/splendor-rl/splendor/internal/rng"
)

// outOfRange is how far past the action space fuzzed indices reach, so that
// Apply's range check is exercised as well as its legality check.
const outOfRange = 8

// FuzzApply drives a dealt game with arbitrary action indices and holds Apply
// to its contract: it never panics, it succeeds exactly for the indices in the
// legal mask, and a rejected index wraps ErrIllegal and changes nothing (the
// server relies on that to reject a whole batch without side effects). The
// players byte also picks the payment rule: players%3 gives the count (2–4),
// players/3 odd the payment choice.
func FuzzApply(f *testing.F) {
	f.Add(byte(0), uint64(1), []byte{})
	// Actions of every kind that the opening position forbids: buying an
	// empty reserve slot, returning, choosing a noble, passing, paying.
	f.Add(byte(0), uint64(2), []byte{57, 58, 59, 60, 65, 66, 70, 71, 72, 76, 77})
	f.Add(byte(1), uint64(7), []byte{0, 1, 2, 25, 26, 27, 45, 46, 47, 71, 79})
	f.Add(byte(2), uint64(42), []byte{30, 31, 32, 33, 42, 43, 44, 57, 60, 66})
	f.Add(byte(0), uint64(3), []byte{9, 9, 9, 9, 9, 9, 9, 9, 60, 61, 62, 63, 64, 65})
	f.Add(byte(5), uint64(1<<63), []byte{78, 255, 128, 0, 10, 20, 21, 24, 77})
	// Whole random games reach the pay, return and noble phases and the end,
	// which arbitrary bytes rarely do.
	for players := byte(0); players < 6; players++ {
		f.Add(players, uint64(11), legalGame(players, 11))
	}
	f.Fuzz(func(t *testing.T, players byte, seed uint64, actions []byte) {
		s := fuzzDeal(players, seed)
		for _, b := range actions {
			engine.CheckApply(t, &s, int(b)%(splendor.NumActions+outOfRange))
		}
	})
}

// fuzzDeal deals the game FuzzApply's players byte describes.
func fuzzDeal(players byte, seed uint64) splendor.State {
	s, err := splendor.New(2+int(players%3), seed)
	if err != nil {
		panic(err)
	}
	s.ChoosePayment = players/3%2 == 1
	return s
}

// legalGame plays the game FuzzApply's players byte and seed deal to the end
// with uniformly random legal decisions and returns them as fuzz input bytes
// (every index is below 256 and below NumActions+outOfRange, so each byte
// decodes to itself).
func legalGame(players byte, seed uint64) []byte {
	s, r := fuzzDeal(players, seed), rng.New(seed)
	var actions []byte
	for _, i := range engine.Decisions(&s, &r) {
		actions = append(actions, byte(i))
	}
	return actions
}

// FuzzParse: any text either fails to parse or gives a state whose notation
// reads back to it, with a legal action unless the game is over.
func FuzzParse(f *testing.F) {
	engine.Fuzz(f, engine.CheckParsed, pos(), pos("seat=4"), pos("players=4", "phase=return", "p0=444000|-|-|-"),
		twoNobles, choosing(paying1, "phase=pay", "buying=1:03000", "p0=030001|-|-|-"))
}

// FuzzCheckedState mutates the notation of states reached in play: any text
// that Parse and Check accept must be safe for every op (see
// rulestest.CheckSafe).
func FuzzCheckedState(f *testing.F) { engine.Fuzz(f, engine.CheckSafe, engine.Seeds(deals(1))...) }
