package duel

import "github.com/splendor-rl/splendor/internal/bitset"

// A bought card resolves in this order, each step a decision only when it
// offers several options: its payment (variant "choose payment" only, see
// pay.go), the joker's colour, the card's ability, a royal card for a crown
// threshold (and the royal's ability), then the end of the turn: the token
// limit, the victory check and the pyramid's refill.

// gain makes the paid-for card c the seat's and resolves its effects.
func (s *State) gain(p *Player, c Card) {
	info := &cards[c]
	p.Bought.Add(c)
	p.Points += info.Points
	p.Crowns += info.Crowns
	if info.Colour != NoGem {
		p.Bonus[info.Colour] += info.Bonuses
		p.ColourPoints[info.Colour] += info.Points
	}
	if info.Joker {
		g, only := bitset.Only(p.bonusColours())
		if !only {
			s.Pending = c
			s.Phase = PhaseJoker
			return
		}
		s.placeJoker(p, c, Gem(g))
	}
	s.cardAbility(p, c)
}

// placeJoker gives joker card c colour g.
func (s *State) placeJoker(p *Player, c Card, g Gem) {
	s.JokerColour[jokerOrdinal[c]] = g
	p.Bonus[g] += cards[c].Bonuses
	p.ColourPoints[g] += cards[c].Points
}

// cardAbility resolves the ability of the card just bought.
func (s *State) cardAbility(p *Player, c Card) {
	s.Pending = NoCard
	s.ability(p, cards[c].Ability, c)
}

// ability resolves an ability of card c or of a royal card (c NoCard: no
// royal takes a token), then goes on to the royal check unless the ability
// asks for a decision.
func (s *State) ability(p *Player, a Ability, c Card) {
	switch a {
	case AbilityAgain:
		s.Again = true
	case AbilityPrivilege:
		s.givePrivilege(s.Seat)
	case AbilityToken:
		cells := s.cellsOf(s.cardColour(c))
		if cells == 0 {
			break
		}
		if cell, only := bitset.Only(cells); only {
			s.takeCell(p, uint8(cell))
			break
		}
		s.Pending = c
		s.Phase = PhaseToken
		return
	case AbilitySteal:
		if s.steal(p) {
			return
		}
	}
	s.royalCheck(p)
}

// steal takes the opponent's only gem or pearl kind at once, or moves to
// the steal decision (true) when there are several; none: nothing.
func (s *State) steal(p *Player) (deciding bool) {
	opp := &s.Players[1-s.Seat]
	kinds := opp.Tokens.kinds()
	if kinds == 0 {
		return false
	}
	if g, only := bitset.Only(kinds); only {
		s.stealKind(p, Gem(g))
		return false
	}
	s.Phase = PhaseSteal
	return true
}

// stealKind moves one token of kind g from the opponent to p.
func (s *State) stealKind(p *Player, g Gem) {
	s.Players[1-s.Seat].Tokens[g]--
	p.Tokens[g]++
}

// royalCheck gives the royal cards the seat's crowns have earned: one at 3
// crowns and one at 6, the choice being a decision when several remain.
func (s *State) royalCheck(p *Player) {
	avail := s.availableRoyals()
	if !p.royalOwed() || avail == 0 {
		s.endTurn(p, false)
		return
	}
	if r, only := bitset.Only(avail); only {
		s.takeRoyal(p, Royal(r))
		return
	}
	s.Phase = PhaseRoyal
}

// royalOwed reports whether p has passed more crown thresholds than it holds
// royal cards.
func (p *Player) royalOwed() bool {
	earned := 0
	for _, t := range RoyalThresholds {
		if p.Crowns >= t {
			earned++
		}
	}
	return earned > p.Royals.Len()
}

// takeRoyal gives p royal r and resolves its ability.
func (s *State) takeRoyal(p *Player, r Royal) {
	p.Royals |= 1 << r
	p.Points += royals[r].Points
	s.ability(p, royals[r].Ability, NoCard)
}

// endTurn follows the turn's last action once its effects are resolved
// (passed: the seat could only pass): the seat returns tokens while over
// the limit, then the turn finishes. A pass can leave the seat over the
// limit when privileges used earlier in the turn took it there; the returns
// then fill the bag, so the turn no longer counts as a pass.
func (s *State) endTurn(p *Player, passed bool) {
	if p.Tokens.Total() > TokenLimit {
		s.Phase = PhaseReturn
		return
	}
	s.finishTurn(p, passed)
}

// finishTurn checks victory, which ends the game at once with the seat to
// act as the winner; a second consecutive pass ends it Blocked. Otherwise
// the pyramid is refilled and the opponent plays, or the same seat again
// after an again ability: an extra turn is a new turn, so it sees the
// refilled pyramid.
func (s *State) finishTurn(p *Player, passed bool) {
	s.Turn++
	if passed {
		s.Passes++
	} else {
		s.Passes = 0
	}
	s.Replenished = false
	s.Pending = NoCard
	s.Phase = PhaseMain
	if p.Victory() != 0 || s.Passes >= NumPlayers {
		s.Phase = PhaseOver
		s.Again = false
		return
	}
	s.refillPyramid()
	if s.Again {
		s.Again = false
		return
	}
	s.Seat = 1 - s.Seat
}
