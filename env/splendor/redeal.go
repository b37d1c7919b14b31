package splendor

import (
	"github.com/splendor-rl/splendor/internal/deck"
	"github.com/splendor-rl/splendor/internal/rng"
)

// Redeal shuffles everything seat cannot see and puts it back in the same
// places: per level, the undrawn cards together with the other seats'
// blind-reserved cards of that level. All seat can see stays, so the result
// is a game seat cannot tell from this one: a determinization for
// information-set search. It allocates nothing.
func (s *State) Redeal(seat int, r *rng.Rand) {
	for l := 0; l < NumLevels; l++ {
		var hidden [maxDeckSize + MaxPlayers*MaxReserved]Card
		n := copy(hidden[:], s.Decks[l][:s.DeckSize[l]])
		n = s.blindOf(seat, l, hidden[:], n, false)
		rng.Shuffle(r, hidden[:n])
		m := copy(s.Decks[l][:s.DeckSize[l]], hidden[:n])
		s.blindOf(seat, l, hidden[:], m, true)
	}
}

// blindOf walks the level-l blind reserves of every seat but seat, from
// hidden[n] on: reading them into hidden, or writing hidden back into them.
func (s *State) blindOf(seat, l int, hidden []Card, n int, write bool) int {
	for other := 0; other < int(s.NumPlayers); other++ {
		if p := &s.Players[other]; other != seat {
			n = deck.Blind(p.Reserved[:p.NumReserved], p.Blind, levelStart[l], levelStart[l+1], hidden, n, write)
		}
	}
	return n
}
