package splendor

import "github.com/splendor-rl/splendor/internal/bitset"

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
	p := &s.Players[s.Seat]
	switch s.Phase {
	case PhaseMain:
		s.legalMain(m, p)
	case PhasePay: // gold for a colour still due, or done
		*m = block(payGoldBase, uint64(bitset.Nonzero(s.Due[:]))|1<<(payDoneIndex-payGoldBase))
	case PhaseReturn:
		*m = block(returnBase, uint64(bitset.Nonzero(p.Tokens[:])))
	case PhaseChooseNoble:
		*m = block(nobleBase, uint64(s.qualifying(p)))
	default:
		*m = ActionSet{}
	}
}

// LegalSet is Legal in the set every engine hands the generic env and bots.
func (s *State) LegalSet() (set bitset.Actions) {
	s.Legal((*ActionSet)(set[:]))
	return set
}

// block is the set of the indices base+j for every member j of set, a
// follow-up phase's actions.
func block(base int, set uint64) ActionSet {
	var m ActionSet
	bitset.AddBits(m[:], base, set)
	return m
}

// legalMain writes the main phase's mask, built in one word: every index
// it can set but pass's is below 64. (It writes the words rather than
// return the set: Go returns an array of two words through memory, which
// cost Legal 4 %.)
func (s *State) legalMain(m *ActionSet, p *Player) {
	bank := s.Bank.gemLanes()
	w := takeMasks[atLeast(bank, 1)] | uint64(atLeast(bank, 4))<<takeTwoBase // TakeTwo needs a pile of 4
	power, gold := p.power(), uint64(p.Tokens[Gold])
	var market, afford uint64 // bit l*MarketSlots+slot
	for l := range s.Market {
		for slot, c := range &s.Market[l] {
			if c != NoCard {
				bit := uint64(1) << (l*MarketSlots + slot)
				market |= bit
				if shortfall(costLanes[c], power) <= gold {
					afford |= bit
				}
			}
		}
	}
	w |= afford << buyCardBase
	if p.NumReserved < MaxReserved {
		w |= market<<reserveCardBase | uint64(s.decksLeft())<<reserveTopBase
	}
	for r, c := range p.Reserved[:p.NumReserved] {
		bit := uint64(1) << (buyReservedBase + r)
		if shortfall(costLanes[c], power) <= gold {
			w |= bit
		}
	}
	*m = ActionSet{w}
	if w == 0 {
		m.Add(passIndex)
	}
}

// decksLeft is the set of levels whose deck has cards, bit l for level l.
func (s *State) decksLeft() uint32 { return bitset.Nonzero(s.DeckSize[:]) }

// colours is the set of gem colours with at least one token.
func (t *Tokens) colours() GemSet { return atLeast(t.gemLanes(), 1) }

// power is what p can pay per colour without gold: bonuses plus gems, as
// lanes.
func (p *Player) power() uint64 { return lanes(&p.Bonus) + p.Tokens.gemLanes() }

// canAfford reports whether bonuses, then tokens of each colour, then gold
// cover card c.
func (p *Player) canAfford(c Card) bool {
	return shortfall(costLanes[c], p.power()) <= uint64(p.Tokens[Gold])
}

// qualifying is the set of noble slots whose noble p's bonuses satisfy.
func (s *State) qualifying(p *Player) uint8 {
	bonus := lanes(&p.Bonus)
	var q uint8
	for slot, n := range s.Nobles {
		if n != NoNoble && covers(bonus, needLanes[n]) {
			q |= 1 << slot
		}
	}
	return q
}
