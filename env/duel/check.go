package duel

import (
	"fmt"

	"github.com/splendor-rl/splendor/internal/deck"
)

// Check reports whether s could occur in a real game, beyond the structure
// Parse checks: the box's 25 tokens are on the board, in the bag or with the
// seats (what is due in phase pay is still the seat's), only the seat in the
// middle of its turn holds more than 10, every card is in exactly one place
// (the card being paid for in none other), a pyramid slot waits for its
// refill only after the turn's mandatory action, the three privileges and
// four royals are where the rules can put them, each seat's royals match its
// crown thresholds, and bonuses, points and crowns follow from the cards,
// the joker colours and the royals. It returns the first problem found, nil
// if none.
func (s *State) Check() error {
	for _, check := range []func() error{
		s.checkSeat, s.checkTokens, s.checkCards, s.checkPrivilegesAndRoyals, s.checkScores, s.checkPayment, s.checkEnd,
	} {
		if err := check(); err != nil {
			return err
		}
	}
	return nil
}

// checkSeat comes first: the other checks index the seats by it.
func (s *State) checkSeat() error {
	if s.Seat >= NumPlayers {
		return fmt.Errorf("seat %d", s.Seat)
	}
	return nil
}

func (s *State) checkTokens() error {
	var total [NumTokenKinds]int
	for c, g := range s.Board {
		switch {
		case g == NoGem:
		case g >= NumTokenKinds:
			return fmt.Errorf("cell %s holds no token kind", CellName(c))
		default:
			total[g]++
		}
	}
	for k := range total {
		total[k] += int(s.Bag[k]) + int(s.Players[0].Tokens[k]) + int(s.Players[1].Tokens[k])
	}
	for k, n := range total {
		if n != int(Supply[k]) {
			return fmt.Errorf("tokens: %d %s, want %d", n, Gem(k), Supply[k])
		}
	}
	if held := s.Players[1-s.Seat].Tokens.Total(); held > TokenLimit {
		return fmt.Errorf("seat %d, not to act, holds %d tokens", 1-s.Seat, held)
	}
	if held := s.Players[s.Seat].Tokens.Total(); s.Phase == PhaseOver && held > TokenLimit {
		return fmt.Errorf("the game ended with seat %d holding %d tokens", s.Seat, held)
	}
	return nil
}

func (s *State) checkCards() error {
	cs := deck.Census[Card]{N: NumCards}
	if s.Phase == PhasePay {
		cs.Add(s.Pending)
	}
	waiting := 0
	for l := 0; l < NumLevels; l++ {
		if s.DeckSize[l] > maxDeckSize {
			return fmt.Errorf("deck %d holds %d cards", l+1, s.DeckSize[l])
		}
		cs.Add(s.deck(l)...)
		for k := PyramidStart[l]; k < PyramidStart[l+1]; k++ {
			if c := s.Pyramid[k]; c != NoCard {
				cs.Add(c)
			} else if s.DeckSize[l] != 0 {
				waiting++
			}
		}
	}
	if waiting > 1 || waiting == 1 && (s.Phase == PhaseMain || s.Phase == PhaseReserve) {
		return fmt.Errorf("%d pyramid slots wait for a refill in phase %s", waiting, s.Phase)
	}
	for i := range s.Players {
		p := &s.Players[i]
		if p.NumReserved > MaxReserved || p.Blind>>p.NumReserved != 0 {
			return fmt.Errorf("seat %d reserves %d cards, blind %b", i, p.NumReserved, p.Blind)
		}
		cs.Add(p.Reserved[:p.NumReserved]...)
		if !cs.AddSet(&p.Bought) {
			return fmt.Errorf("seat %d holds cards not in the box", i)
		}
	}
	return cs.Err()
}

// checkPrivilegesAndRoyals: three privileges in all, each royal with one
// seat at most, and a royal for each crown threshold once the turn is past
// the purchase's decisions.
func (s *State) checkPrivilegesAndRoyals() error {
	if n := int(s.Players[0].Privileges) + int(s.Players[1].Privileges); n > NumPrivileges {
		return fmt.Errorf("privileges: %d with the seats, want %d at most", n, NumPrivileges)
	}
	if both := s.Players[0].Royals & s.Players[1].Royals; both != 0 {
		return fmt.Errorf("royals %b with both seats", both)
	}
	settled := s.Phase == PhaseMain || s.Phase == PhaseReturn || s.Phase == PhaseOver
	for i := range s.Players {
		p := &s.Players[i]
		if p.Royals>>NumRoyals != 0 {
			return fmt.Errorf("seat %d holds royals not in the box", i)
		}
		earned := 0
		for _, th := range RoyalThresholds {
			if p.Crowns >= th {
				earned++
			}
		}
		if p.Royals.Len() > earned || settled && p.Royals.Len() != earned {
			return fmt.Errorf("seat %d holds %d royals with %d crowns", i, p.Royals.Len(), p.Crowns)
		}
	}
	return nil
}

// checkScores: bonuses, points, crowns and colour points follow from the
// cards, the joker colours and the royals.
func (s *State) checkScores() error {
	for i := range s.Players {
		p := &s.Players[i]
		var bonus, colourPoints [NumColours]uint8
		var points, crowns uint8
		for c := Card(0); c < NumCards; c++ {
			info := &cards[c]
			colour := info.Colour
			if o := jokerOrdinal[c]; o >= 0 {
				colour = s.JokerColour[o]
				if colour != NoGem && colour > Black {
					return fmt.Errorf("joker %d has colour %s", c, colour)
				}
				bought := s.Players[0].Bought.Has(c) || s.Players[1].Bought.Has(c)
				pending := s.Phase == PhaseJoker && s.Pending == c
				if bought != (colour != NoGem) && !pending {
					return fmt.Errorf("joker %d has colour %s, bought %v", c, colour, bought)
				}
			}
			if !p.Bought.Has(c) {
				continue
			}
			points += info.Points
			crowns += info.Crowns
			if colour != NoGem {
				bonus[colour] += info.Bonuses
				colourPoints[colour] += info.Points
			}
		}
		for r := Royal(0); r < NumRoyals; r++ {
			if p.Royals.Has(r) {
				points += royals[r].Points
			}
		}
		switch {
		case points != p.Points:
			return fmt.Errorf("seat %d: %d points, cards and royals give %d", i, p.Points, points)
		case crowns != p.Crowns:
			return fmt.Errorf("seat %d: %d crowns, cards give %d", i, p.Crowns, crowns)
		case bonus != p.Bonus:
			return fmt.Errorf("seat %d: bonuses %v, cards give %v", i, p.Bonus, bonus)
		case colourPoints != p.ColourPoints:
			return fmt.Errorf("seat %d: colour points %v, cards give %v", i, p.ColourPoints, colourPoints)
		}
	}
	return nil
}

// checkEnd: the game is over exactly when the seat to act met a victory
// condition at the end of its turn, or both seats passed in turn; the
// opponent of the seat to act never has, and a turn only goes on past a
// victory through the decisions of the purchase that brought it. A game not
// over thus has a decision left, and one over has its winner.
func (s *State) checkEnd() error {
	if v := s.Players[1-s.Seat].Victory(); v != 0 {
		return fmt.Errorf("seat %d, not to act, has won by %s", 1-s.Seat, v)
	}
	won := s.Players[s.Seat].Victory() != 0
	blocked := s.Passes >= NumPlayers
	switch {
	case s.Over() && !won && !blocked:
		return fmt.Errorf("phase over but seat %d has not won and the game is not blocked", s.Seat)
	case s.Over() && (s.Again || s.Replenished):
		return fmt.Errorf("phase over with again=%v, replenished=%v", s.Again, s.Replenished)
	case !s.Over() && blocked:
		return fmt.Errorf("%d passes in a row but the game goes on", s.Passes)
	case won && (s.Phase == PhaseMain || s.Phase == PhaseReserve):
		return fmt.Errorf("seat %d has won but the game goes on in phase %s", s.Seat, s.Phase)
	}
	return nil
}

// checkPayment: something is due only in phase pay, which only the "choose
// payment" variant has.
func (s *State) checkPayment() error {
	paying := s.Phase == PhasePay
	if !paying && s.Due != ([NumCostKinds]uint8{}) || paying && !s.ChoosePayment {
		return fmt.Errorf("due %v in phase %s, choose payment %v", s.Due, s.Phase, s.ChoosePayment)
	}
	return nil
}
