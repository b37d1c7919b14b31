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
func (m *ActionSet) addBits(i int, set uint64) {
	w, off := i>>6, i&63
	m[w] |= set << off
	if off > 32 && w+1 < len(m) {
		m[w+1] |= set >> (64 - off)
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
		for g := White; g <= Gold; g++ {
			if p.Tokens[g] > 0 {
				m.Add(returnBase + int(g))
			}
		}
	}
}

// legalMain lists the mandatory actions, then the optional ones still open;
// with no mandatory action the seat may only replenish, and with nothing at
// all it passes.
func (s *State) legalMain(m *ActionSet, p *Player) {
	takeable, gold := s.boardCells()
	for i := range lineBlocks {
		lineBlocks[i].addLines(m, takeable)
	}
	if gold != 0 && p.NumReserved < MaxReserved && s.canReserve() {
		m.addBits(goldBase, uint64(gold))
	}
	w := p.wallet()
	for k, c := range s.Pyramid {
		if c != NoCard && w.canBuy(c) {
			m.Add(buyCardBase + k)
		}
	}
	for r := 0; r < int(p.NumReserved); r++ {
		if w.canBuy(p.Reserved[r]) {
			m.Add(buyReservedBase + r)
		}
	}
	if !s.Replenished {
		if p.Privileges > 0 {
			m.addBits(privilegeBase, uint64(takeable))
		}
		if s.Bag != (Tokens{}) {
			m.Add(replenishIndex)
		}
	}
	if *m == (ActionSet{}) {
		m.Add(passIndex)
	}
}

// boardCells returns the cells holding a gem or pearl, and those holding
// gold. It reads the board eight cells at a time: in a word of eight cells,
// bit 7 of each byte is turned into a flag, and the flags are gathered into
// eight consecutive bits by one multiplication.
func (s *State) boardCells() (takeable, gold uint32) {
	b := &s.Board
	for i := 0; i+8 <= NumCells; i += 8 {
		x := uint64(b[i]) | uint64(b[i+1])<<8 | uint64(b[i+2])<<16 | uint64(b[i+3])<<24 |
			uint64(b[i+4])<<32 | uint64(b[i+5])<<40 | uint64(b[i+6])<<48 | uint64(b[i+7])<<56
		// A byte is 0–6 (a kind) or 0xff (empty). low+0x7a has bit 7 set
		// from 6 (gold) up; the byte's own bit 7 marks empty.
		low := x & 0x7f7f7f7f7f7f7f7f
		notTakeable := ((low + 0x7a7a7a7a7a7a7a7a) | x) & 0x8080808080808080
		y := x ^ 0x0606060606060606 // zero bytes are gold
		isGold := ^((y&0x7f7f7f7f7f7f7f7f + 0x7f7f7f7f7f7f7f7f) | y) & 0x8080808080808080
		takeable |= gatherFlags(^notTakeable&0x8080808080808080) << i
		gold |= gatherFlags(isGold) << i
	}
	const last = NumCells - 1 // the 25th cell, past the three words
	switch b[last] {
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
func gatherFlags(x uint64) uint32 {
	return uint32(((x >> 7) * 0x0102040810204080) >> 56)
}

// cellsOf is the set of cells holding a token of kind g.
func (s *State) cellsOf(g Gem) uint32 {
	var set uint32
	for c, t := range s.Board {
		if t == g {
			set |= 1 << c
		}
	}
	return set
}

// reserveTargets is the set of cards a seat could reserve: bit k for
// pyramid slot k, bit PyramidSlots+l for the top of level l's deck.
func (s *State) reserveTargets() uint32 {
	var set uint32
	for k, c := range s.Pyramid {
		if c != NoCard {
			set |= 1 << k
		}
	}
	for l, n := range s.DeckSize {
		if n > 0 {
			set |= 1 << (PyramidSlots + l)
		}
	}
	return set
}

// canReserve reports whether any card could be reserved.
func (s *State) canReserve() bool {
	if s.DeckSize != ([NumLevels]uint8{}) {
		return true
	}
	for _, c := range s.Pyramid {
		if c != NoCard {
			return true
		}
	}
	return false
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
func (p *Player) bonusColours() uint32 {
	var set uint32
	for g, n := range p.Bonus {
		if n > 0 {
			set |= 1 << g
		}
	}
	return set
}

// wallet is what a seat can pay with, packed one byte per cost kind
// (bonuses plus tokens for the colours, tokens for the pearl) so that a card's
// shortfall is a few word operations.
type wallet struct {
	have  uint64
	gold  int
	joker bool // the seat owns a bonus a joker card can copy
}

func (p *Player) wallet() wallet {
	var have uint64
	for k := White; k <= Pearl; k++ {
		n := uint64(p.Tokens[k])
		if k <= Black {
			n += uint64(p.Bonus[k])
		}
		have |= n << (8 * k)
	}
	return wallet{have: have, gold: int(p.Tokens[Gold]), joker: p.bonusColours() != 0}
}

// canBuy reports whether c may be bought: a joker needs a bonus to copy, and
// bonuses, then tokens of each kind, then gold must cover the cost.
func (w wallet) canBuy(c Card) bool {
	if cards[c].Joker && !w.joker {
		return false
	}
	return shortfall(costWords[c], w.have) <= w.gold
}

// shortfall sums max(0, cost−have) over the bytes of two words of small
// counts (below 128, sums below 256): with bit 7 set on every cost byte the
// subtraction cannot borrow across bytes, and bit 7 survives exactly where
// cost >= have.
func shortfall(cost, have uint64) int {
	const high = 0x8080808080808080
	x := (cost | high) - have
	keep := (x & high) >> 7 * 0x7f
	return int(((x & keep) * 0x0101010101010101) >> 56)
}

// costWords holds each card's cost packed like wallet.have (filled by
// loadCards).
var costWords [NumCards]uint64

// canBuy reports whether p may buy c.
func (p *Player) canBuy(c Card) bool { return p.wallet().canBuy(c) }
