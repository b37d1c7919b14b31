package duel

import (
	"github.com/splendor-rl/splendor/internal/deck"
	"github.com/splendor-rl/splendor/internal/rng"
)

// Redeal shuffles everything seat cannot see and puts it back in the same
// places: per level, the undrawn cards together with the opponent's
// blind-reserved cards of that level; and it redraws the bag's future
// (Chance). All seat can see stays, so the result is a game seat cannot tell
// from this one: a determinization for information-set search. It allocates
// nothing.
func (s *State) Redeal(seat int, r *rng.Rand) {
	opp := &s.Players[1-seat]
	for l := 0; l < NumLevels; l++ {
		var hidden [maxDeckSize + MaxReserved]Card
		n := copy(hidden[:], s.Decks[l][:s.DeckSize[l]])
		lo, hi := levelStart[l], levelStart[l+1]
		n = deck.Blind(opp.Reserved[:opp.NumReserved], opp.Blind, lo, hi, hidden[:], n, false)
		rng.Shuffle(r, hidden[:n])
		m := copy(s.Decks[l][:s.DeckSize[l]], hidden[:n])
		deck.Blind(opp.Reserved[:opp.NumReserved], opp.Blind, lo, hi, hidden[:], m, true)
	}
	s.Chance = r.Uint64()
}
