package duel

import (
	"errors"

	"github.com/splendor-rl/splendor/internal/bitset"
	"github.com/splendor-rl/splendor/internal/deck"
	"github.com/splendor-rl/splendor/internal/notation"
)

// Apply plays action index i for the seat to act. An illegal or out-of-range
// index returns an error wrapping ErrIllegal and changes nothing.
func (s *State) Apply(i int) error {
	if !s.isLegal(i) {
		return s.illegal(i)
	}
	p := &s.Players[s.Seat]
	switch a := actionTable[i]; a.Kind {
	case TakeLine:
		s.takeLine(p, i)
	case UsePrivilege:
		p.Privileges--
		s.takeCell(p, a.Cell)
	case Replenish:
		s.replenish()
		s.Replenished = true
		s.givePrivilege(1 - s.Seat)
	case TakeGold:
		s.takeCell(p, a.Cell)
		s.afterGold(p)
	case BuyCard:
		k := PyramidStart[a.Level] + int(a.Slot)
		c := s.Pyramid[k]
		s.Pyramid[k] = NoCard // refilled as the turn passes
		s.buy(p, c)
	case BuyReserved:
		s.buy(p, p.unreserve(a.Slot))
	case Pass:
		s.endTurn(p, true)
	default:
		s.applyFollowUp(p, a)
	}
	return nil
}

// illegal is Apply's error for index i. It is a call of its own, kept out
// of Apply, so that the hot path does not carry the error's arguments:
// inlined, it cost Apply and the random game 2–3 %.
//
//go:noinline
func (s *State) illegal(i int) error { return notation.Illegal(ErrIllegal, labelTable[:], i, s.Phase) }

// ErrIllegal reports an action that is not legal in the current state; the
// state is left untouched.
var ErrIllegal = errors.New("duel: illegal action")

// applyFollowUp plays a decision of the phases after the main one.
func (s *State) applyFollowUp(p *Player, a Action) {
	switch a.Kind {
	case ReserveCard:
		s.reserveSlot(p, PyramidStart[a.Level]+int(a.Slot))
	case ReserveTop:
		s.reserveSlot(p, PyramidSlots+int(a.Level))
	case ChooseJoker:
		s.placeJoker(p, s.Pending, a.Gem)
		s.cardAbility(p, s.Pending)
	case ChooseToken:
		s.takeCell(p, a.Cell)
		s.Pending = NoCard
		s.royalCheck(p)
	case ChooseSteal:
		s.stealKind(p, a.Gem)
		s.royalCheck(p)
	case ChooseRoyal:
		s.takeRoyal(p, Royal(a.Slot))
	case PayGold:
		s.payGold(p, a.Gem)
	case PayDone:
		s.settle(p)
	case ReturnToken:
		p.Tokens[a.Gem]--
		s.Bag[a.Gem]++
		s.endTurn(p, false)
	}
}

// isLegal checks one index; main-phase actions are checked on their own
// without generating them all. The simulation tests hold it equal to Legal
// for every index.
func (s *State) isLegal(i int) bool {
	if uint(i) >= NumActions {
		return false
	}
	a := actionTable[i]
	if s.Phase != PhaseMain || a.Kind == Pass {
		var m ActionSet
		s.Legal(&m)
		return m.Has(i)
	}
	p := &s.Players[s.Seat]
	switch a.Kind {
	case TakeLine:
		for _, c := range lineCells[i][:a.Len] {
			if s.Board[c] > Pearl {
				return false
			}
		}
		return true
	case UsePrivilege:
		return !s.Replenished && p.Privileges > 0 && s.Board[a.Cell] <= Pearl
	case Replenish:
		return !s.Replenished && s.Bag != (Tokens{})
	case TakeGold:
		return s.Board[a.Cell] == Gold && p.NumReserved < MaxReserved && s.canReserve()
	case BuyCard:
		c := s.Pyramid[PyramidStart[a.Level]+int(a.Slot)]
		return c != NoCard && p.canBuy(c)
	case BuyReserved:
		return a.Slot < p.NumReserved && p.canBuy(p.Reserved[a.Slot])
	}
	return false
}

// takeLine moves a line's tokens to the seat. Three of one colour, or both
// pearls, give the opponent a privilege.
func (s *State) takeLine(p *Player, i int) {
	cells := lineCells[i][:actionTable[i].Len]
	first := s.Board[cells[0]]
	same, pearls := true, 0
	for _, c := range cells {
		g := s.Board[c]
		same = same && g == first
		if g == Pearl {
			pearls++
		}
		s.takeCell(p, c)
	}
	if (len(cells) == MaxLine && same) || pearls == 2 {
		s.givePrivilege(1 - s.Seat)
	}
	s.endTurn(p, false)
}

func (s *State) takeCell(p *Player, c uint8) {
	p.Tokens[s.Board[c]]++
	s.Board[c] = NoGem
}

// givePrivilege gives seat a privilege from the supply, else from the
// opponent; a seat holding all three gets nothing.
func (s *State) givePrivilege(seat uint8) {
	p, opp := &s.Players[seat], &s.Players[1-seat]
	switch {
	case s.PrivilegeSupply() > 0:
		p.Privileges++
	case opp.Privileges > 0:
		opp.Privileges--
		p.Privileges++
	}
}

// afterGold moves to the reserve decision, or reserves at once when only one
// card could be reserved.
func (s *State) afterGold(p *Player) {
	targets := s.reserveTargets()
	if k, only := bitset.Only(targets); only {
		s.reserveSlot(p, k)
		return
	}
	s.Phase = PhaseReserve
}

// reserveSlot reserves the card in pyramid slot k (refilled as the turn
// passes) or, for k = PyramidSlots+l, the top of level l's deck, hidden.
func (s *State) reserveSlot(p *Player, k int) {
	var c Card
	if k < PyramidSlots {
		c = s.Pyramid[k]
		s.Pyramid[k] = NoCard
	} else {
		c = s.draw(k - PyramidSlots)
		p.Blind |= 1 << p.NumReserved
	}
	p.Reserved[p.NumReserved] = c
	p.NumReserved++
	s.endTurn(p, false)
}

// unreserve removes reserve slot r, keeping the others in order, and
// returns its card.
func (p *Player) unreserve(r uint8) Card {
	return deck.Unreserve(p.Reserved[:], &p.NumReserved, &p.Blind, r, NoCard)
}
