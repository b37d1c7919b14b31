package splendor

import (
	"errors"
	"math/bits"

	"github.com/splendor-rl/splendor/internal/deck"
	"github.com/splendor-rl/splendor/internal/notation"
)

// ErrIllegal reports an action that is not legal in the current state; the
// state is left untouched.
var ErrIllegal = errors.New("splendor: illegal action")

// Apply plays action index i for the seat to act. An illegal or out-of-range
// index returns an error wrapping ErrIllegal and changes nothing. It is one
// flat switch on purpose: Apply is the hot path, and moving the switch into a
// helper cost a quarter of a take's time.
func (s *State) Apply(i int) error {
	if i < 0 || i >= NumActions {
		return s.illegal(i)
	}
	if !s.isLegal(i) {
		return s.illegal(i)
	}
	a := actionTable[i]
	p := &s.Players[s.Seat]
	switch a.Kind {
	case TakeDifferent:
		for set := a.Gems; set != 0; set &= set - 1 {
			s.take(p, Gem(bits.TrailingZeros8(uint8(set))), 1)
		}
		s.afterAction(p)
	case TakeTwo:
		s.take(p, a.Gem, 2)
		s.afterAction(p)
	case ReserveCard: // the slot refills at once: the rulebook's "immediately"
		s.reserve(p, s.Market[a.Level][a.Slot], false)
		s.Market[a.Level][a.Slot] = s.draw(int(a.Level))
		s.afterAction(p)
	case ReserveTop:
		s.reserve(p, s.draw(int(a.Level)), true)
		s.afterAction(p)
	case BuyCard:
		c := s.Market[a.Level][a.Slot]
		s.Market[a.Level][a.Slot] = NoCard
		s.buy(p, c)
	case BuyReserved:
		s.buy(p, p.unreserve(a.Slot))
	case PayGold:
		s.payGold(p, a.Gem)
	case PayDone:
		s.settle(p)
	case ReturnToken:
		s.spend(p, a.Gem, 1)
		if p.Tokens.Total() <= TokenLimit {
			s.afterTokens(p, false)
		}
	case ChooseNoble:
		s.visit(p, a.Slot)
		s.endTurn(p, false)
	case Pass:
		s.afterTokens(p, true)
	}
	return nil
}

// illegal is Apply's error for index i. It is a call of its own, kept out
// of Apply, so that the hot path does not carry the error's arguments:
// inlined, or with Apply's two checks in one condition, it cost Apply and
// the random game 2–3 %.
//
//go:noinline
func (s *State) illegal(i int) error { return notation.Illegal(ErrIllegal, labelTable[:], i, s.Phase) }

// isLegal checks one action without generating them all; the simulation
// tests hold it equal to Legal for every index.
func (s *State) isLegal(i int) bool {
	a := actionTable[i]
	p := &s.Players[s.Seat]
	switch s.Phase {
	case PhaseMain:
		return s.isLegalMain(a, i, p)
	case PhasePay:
		return a.Kind == PayDone || a.Kind == PayGold && s.Due[a.Gem] > 0
	case PhaseReturn:
		return a.Kind == ReturnToken && p.Tokens[a.Gem] > 0
	case PhaseChooseNoble:
		return a.Kind == ChooseNoble && s.qualifying(p)&(1<<a.Slot) != 0
	}
	return false
}

func (s *State) isLegalMain(a Action, i int, p *Player) bool {
	switch a.Kind {
	case TakeDifferent:
		return takeMasks[s.Bank.colours()]&(1<<i) != 0
	case TakeTwo:
		return s.Bank[a.Gem] >= 4
	case ReserveCard:
		return p.NumReserved < MaxReserved && s.Market[a.Level][a.Slot] != NoCard
	case ReserveTop:
		return p.NumReserved < MaxReserved && s.DeckSize[a.Level] > 0
	case BuyCard:
		c := s.Market[a.Level][a.Slot]
		return c != NoCard && p.canAfford(c)
	case BuyReserved:
		return a.Slot < p.NumReserved && p.canAfford(p.Reserved[a.Slot])
	case Pass:
		var m ActionSet
		s.legalMain(&m, p)
		return m.Has(i)
	}
	return false
}

func (s *State) take(p *Player, g Gem, n uint8) {
	s.Bank[g] -= n
	p.Tokens[g] += n
}

func (s *State) reserve(p *Player, c Card, blind bool) {
	if blind {
		p.Blind |= 1 << p.NumReserved
	}
	p.Reserved[p.NumReserved] = c
	p.NumReserved++
	if s.Bank[Gold] > 0 {
		s.take(p, Gold, 1)
	}
}

// unreserve removes reserve slot r, keeping the others in order, and
// returns its card.
func (p *Player) unreserve(r uint8) Card {
	return deck.Unreserve(p.Reserved[:], &p.NumReserved, &p.Blind, r, NoCard)
}

// afterAction enforces the token limit before the noble check.
func (s *State) afterAction(p *Player) {
	if p.Tokens.Total() > TokenLimit {
		s.Phase = PhaseReturn
		return
	}
	s.afterTokens(p, false)
}

// afterTokens is the noble check: one qualifying noble visits at once,
// several make the seat choose, none ends the turn. passed marks a turn in
// which nothing else happened.
func (s *State) afterTokens(p *Player, passed bool) {
	q := s.qualifying(p)
	switch bits.OnesCount8(q) {
	case 0:
		s.endTurn(p, passed)
	case 1:
		s.visit(p, uint8(bits.TrailingZeros8(q)))
		s.endTurn(p, false)
	default:
		s.Phase = PhaseChooseNoble
	}
}

func (s *State) visit(p *Player, slot uint8) {
	p.Nobles |= 1 << s.Nobles[slot]
	p.Points += NoblePoints
	s.Nobles[slot] = NoNoble
}

// endTurn triggers the final round at 15 points and ends the game when the
// round is complete (the next seat would be seat 0, the first player) or when
// a whole round passed with nothing happening.
func (s *State) endTurn(p *Player, passed bool) {
	if p.Points >= WinningScore {
		s.FinalRound = true
	}
	if passed {
		s.Passes++
	} else {
		s.Passes = 0
	}
	s.Turn++
	s.Phase = PhaseMain
	s.Seat++
	if s.Seat == s.NumPlayers {
		s.Seat = 0
		if s.FinalRound {
			s.Phase = PhaseOver
		}
	}
	if s.Passes >= s.NumPlayers {
		s.Phase = PhaseOver
	}
}
