package duel

import "github.com/splendor-rl/splendor/internal/rng"

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
		n = opp.blindOf(l, hidden[:], n, false)
		rng.Shuffle(r, hidden[:n])
		m := copy(s.Decks[l][:s.DeckSize[l]], hidden[:n])
		opp.blindOf(l, hidden[:], m, true)
	}
	s.Chance = r.Uint64()
}

// blindOf walks p's level-l blind reserves from hidden[n] on: reading them
// into hidden, or writing hidden back into them.
func (p *Player) blindOf(l int, hidden []Card, n int, write bool) int {
	for k := 0; k < int(p.NumReserved); k++ {
		if p.Blind&(1<<k) == 0 || int(p.Reserved[k].Info().Level) != l {
			continue
		}
		if write {
			p.Reserved[k] = hidden[n]
		} else {
			hidden[n] = p.Reserved[k]
		}
		n++
	}
	return n
}
