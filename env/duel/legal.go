package duel

import "github.com/splendor-rl/splendor/internal/bitset"

// ActionSet is a set of action indices, bit i for index i. The engine writes
// legal actions into a caller's ActionSet so that no decision allocates.
type ActionSet [(NumActions + 63) / 64]uint64

// Add puts index i in the set.
func (m *ActionSet) Add(i int) { bitset.Add(m[:], i) }

// Has reports whether index i is in the set.
func (m *ActionSet) Has(i int) bool { return bitset.Has(m[:], i) }

// Len is the number of indices in the set.
func (m *ActionSet) Len() int { return bitset.Len(m[:]) }

// Nth returns the k-th smallest index in the set (k from 0), or -1.
func (m *ActionSet) Nth(k int) int { return bitset.Nth(m[:], k) }

// addBits adds index i+j for every bit j of set (set below 2^32).
func (m *ActionSet) addBits(i int, set uint64) { bitset.AddBits(m[:], i, set) }

// Legal writes the legal actions of the seat to act into m. It is empty
// exactly when the game is over.
func (s *State) Legal(m *ActionSet) {
	*m = ActionSet{}
	p := &s.Players[s.Seat]
	switch s.Phase {
	case PhaseMain:
		s.legalMain(m, p)
	case PhaseReserve:
		m.addBits(reserveCardBase, uint64(s.reserveTargets()))
	case PhaseJoker:
		m.addBits(jokerBase, uint64(p.bonusColours()))
	case PhaseToken:
		m.addBits(tokenBase, uint64(s.cellsOf(s.cardColour(s.Pending))))
	case PhaseSteal:
		m.addBits(stealBase, uint64(s.Players[1-s.Seat].Tokens.kinds()))
	case PhaseRoyal:
		m.addBits(royalBase, uint64(s.availableRoyals()))
	case PhasePay:
		m.addBits(payGoldBase, uint64(s.payKinds()))
		m.Add(payDoneIndex)
	case PhaseReturn:
		m.addBits(returnBase, uint64(p.Tokens.held()))
	}
}

// LegalSet is Legal in the set every engine hands the generic env and bots.
func (s *State) LegalSet() (set bitset.Actions) {
	s.Legal((*ActionSet)(set[:]))
	return set
}

// legalMain lists the mandatory actions, then the optional ones still open;
// with no mandatory action the seat may only replenish, and with nothing at
// all it passes.
func (s *State) legalMain(m *ActionSet, p *Player) {
	takeable, gold := s.boardCells()
	m.addLines(takeable)
	open := takeable != 0 // a takeable cell is at least a one-token line
	if gold != 0 && p.NumReserved < MaxReserved && s.canReserve() {
		m.addBits(goldBase, uint64(gold))
		open = true
	}
	w := p.wallet()
	var buyable, buyableReserved uint32
	for k, c := range &s.Pyramid {
		buyable |= w.buyable(c) << k
	}
	for r := 0; r < int(p.NumReserved); r++ {
		buyableReserved |= w.buyable(p.Reserved[r]) << r
	}
	m.addBits(buyCardBase, uint64(buyable))
	m.addBits(buyReservedBase, uint64(buyableReserved))
	open = open || buyable|buyableReserved != 0
	if !s.Replenished {
		if p.Privileges > 0 { // takeable cells only, which made open true
			m.addBits(privilegeBase, uint64(takeable))
		}
		if s.Bag != (Tokens{}) {
			m.Add(replenishIndex)
			open = true
		}
	}
	if !open {
		m.Add(passIndex)
	}
}

// boardCells returns the cells holding a gem or pearl, and those holding
// gold. It reads the board eight cells at a time, one byte each: a byte is
// 0–6 (a kind) or 0xff (empty), so bit 7 marks an empty cell, and bits 1
// and 2 are both set only for 6, gold. The flags, moved to bit 0 of each
// byte, are gathered into eight consecutive bits by one multiplication.
func (s *State) boardCells() (takeable, gold uint32) {
	for i := 0; i+8 <= NumCells; i += 8 {
		c := (*[8]Gem)(s.Board[i : i+8])
		x := uint64(c[0]) | uint64(c[1])<<8 | uint64(c[2])<<16 | uint64(c[3])<<24 |
			uint64(c[4])<<32 | uint64(c[5])<<40 | uint64(c[6])<<48 | uint64(c[7])<<56
		empty, six := x>>7, x>>1&(x>>2)
		takeable |= bitset.GatherLowBits(^(empty|six)&byteOnes) << i
		gold |= bitset.GatherLowBits(six&^empty&byteOnes) << i
	}
	const last = NumCells - 1 // the 25th cell, past the three words
	switch s.Board[last] {
	case Gold:
		gold |= 1 << last
	case NoGem:
	default:
		takeable |= 1 << last
	}
	return takeable, gold
}

// gatherFlags packs bit 7 of each byte of x (the only bits set) into bits
// 0–7 of the result, byte i to bit i.
func gatherFlags(x uint64) uint32 { return bitset.GatherLowBits(x >> 7) }

// Byte-wise constants: 1 and the top bit in every byte.
const (
	byteOnes = 0x0101010101010101
	byteTops = 0x8080808080808080
)

// nonzeroBytes is the set of the nonzero bytes of x, bit i for byte i, when
// every byte is below 128: adding 0x7f then sets a byte's top bit exactly
// when the byte is nonzero, and never carries into the next byte.
func nonzeroBytes(x uint64) uint32 {
	return gatherFlags((x + 0x7f7f7f7f7f7f7f7f) & byteTops)
}

// cellsOf is the set of cells holding a token of kind g.
func (s *State) cellsOf(g Gem) uint32 {
	var set uint32
	for c, t := range &s.Board {
		if t == g {
			set |= 1 << c
		}
	}
	return set
}

// reserveTargets is the set of cards a seat could reserve: bit k for
// pyramid slot k, bit PyramidSlots+l for the top of level l's deck.
func (s *State) reserveTargets() uint32 {
	set := ^s.pyramidGaps() & (1<<PyramidSlots - 1)
	for l, n := range &s.DeckSize {
		if n > 0 {
			set |= 1 << (PyramidSlots + l)
		}
	}
	return set
}

// canReserve reports whether any card could be reserved.
func (s *State) canReserve() bool {
	return s.DeckSize != ([NumLevels]uint8{}) || s.pyramidGaps() != 1<<PyramidSlots-1
}

// availableRoyals is the set of royal cards neither seat has taken.
func (s *State) availableRoyals() uint32 {
	return uint32(^(s.Players[0].Royals | s.Players[1].Royals)) & (1<<NumRoyals - 1)
}

// cardColour is the colour card c counts as: its printed bonus, or for a
// joker the colour it was given (NoGem until then).
func (s *State) cardColour(c Card) Gem {
	if o := jokerOrdinal[c]; o >= 0 {
		return s.JokerColour[o]
	}
	return cards[c].Colour
}

// bonusColours is the set of colours in which p owns at least one bonus.
func (p *Player) bonusColours() uint32 { return bitset.Nonzero(p.Bonus[:]) }
