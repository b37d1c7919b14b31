package splendor

import (
	"math/bits"

	"github.com/splendor-rl/splendor/internal/bitset"
)

// ActionSet is a set of action indices, bit i for index i. The engine writes
// legal actions into a caller's ActionSet so that no decision allocates.
type ActionSet [2]uint64

// Add puts index i in the set.
func (m *ActionSet) Add(i int) { bitset.Add(m[:], i) }

// Has reports whether index i is in the set.
func (m *ActionSet) Has(i int) bool { return bitset.Has(m[:], i) }

// Len is the number of indices in the set.
func (m *ActionSet) Len() int { return bitset.Len(m[:]) }

// Nth returns the k-th smallest index in the set (k from 0), or -1.
func (m *ActionSet) Nth(k int) int { return bitset.Nth(m[:], k) }

// takeMasks[avail] is the set of TakeDifferent indices legal when the colours
// in avail have tokens: every triple of them, or, when fewer than three
// colours remain, exactly the ones that remain (all TakeDifferent indices
// are below 64, in the first word).
var takeMasks [1 << NumColours]uint64

func init() {
	for avail := GemSet(0); avail < 1<<NumColours; avail++ {
		want := min(avail.Len(), 3)
		for set := GemSet(1); set < 1<<NumColours; set++ {
			if set&avail == set && set.Len() == want {
				takeMasks[avail] |= 1 << takeIndex[set]
			}
		}
	}
}

// Legal writes the legal actions of the seat to act into m. It is empty
// exactly when the game is over.
func (s *State) Legal(m *ActionSet) {
	*m = ActionSet{}
	p := &s.Players[s.Seat]
	switch s.Phase {
	case PhaseMain:
		s.legalMain(m, p)
	case PhasePay:
		for g := White; g <= Black; g++ {
			if s.Due[g] > 0 {
				m.Add(payGoldBase + int(g))
			}
		}
		m.Add(payDoneIndex)
	case PhaseReturn:
		for g := White; g <= Gold; g++ {
			if p.Tokens[g] > 0 {
				m.Add(returnBase + int(g))
			}
		}
	case PhaseChooseNoble:
		for q := s.qualifying(p); q != 0; q &= q - 1 {
			m.Add(nobleBase + bits.TrailingZeros8(q))
		}
	}
}

func (s *State) legalMain(m *ActionSet, p *Player) {
	m[0] = takeMasks[s.Bank.colours()]
	for g := White; g <= Black; g++ {
		if s.Bank[g] >= 4 {
			m.Add(takeTwoBase + int(g))
		}
	}
	for l := 0; l < NumLevels; l++ {
		for slot, c := range s.Market[l] {
			if c == NoCard {
				continue
			}
			if p.NumReserved < MaxReserved {
				m.Add(reserveCardBase + l*MarketSlots + slot)
			}
			if p.canAfford(c) {
				m.Add(buyCardBase + l*MarketSlots + slot)
			}
		}
		if p.NumReserved < MaxReserved && s.DeckSize[l] > 0 {
			m.Add(reserveTopBase + l)
		}
	}
	for r := 0; r < int(p.NumReserved); r++ {
		if p.canAfford(p.Reserved[r]) {
			m.Add(buyReservedBase + r)
		}
	}
	if *m == (ActionSet{}) {
		m.Add(passIndex)
	}
}

// colours is the set of gem colours with at least one token.
func (t *Tokens) colours() GemSet {
	var set GemSet
	for g := White; g <= Black; g++ {
		if t[g] > 0 {
			set |= 1 << g
		}
	}
	return set
}

// canAfford reports whether bonuses, then tokens of each colour, then gold
// cover card c.
func (p *Player) canAfford(c Card) bool {
	cost := &cards[c].Cost
	short := 0
	for g := 0; g < NumColours; g++ {
		if need := int(cost[g]) - int(p.Bonus[g]) - int(p.Tokens[g]); need > 0 {
			short += need
		}
	}
	return short <= int(p.Tokens[Gold])
}

// qualifying is the set of noble slots whose noble p's bonuses satisfy.
func (s *State) qualifying(p *Player) uint8 {
	var q uint8
	for slot, n := range s.Nobles {
		if n != NoNoble && p.meets(n) {
			q |= 1 << slot
		}
	}
	return q
}

func (p *Player) meets(n Noble) bool {
	needs := &nobleNeeds[n]
	for g := 0; g < NumColours; g++ {
		if p.Bonus[g] < needs[g] {
			return false
		}
	}
	return true
}
