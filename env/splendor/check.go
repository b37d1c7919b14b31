package splendor

import (
	"fmt"
	"math/bits"

	"github.com/splendor-rl/splendor/internal/deck"
)

// Check reports whether s could occur in a real game, beyond the structure
// Parse checks: every token of the box for the player count is in the bank
// or with a seat (gems due in phase pay are still the seat's), only the seat
// returning tokens holds more than 10, every card is in exactly one place (a
// card being paid for in none other), a market slot is empty only beside an
// empty deck or while its card is paid for, the nobles revealed and visited
// are as many as the setup reveals, each in one place, a seat's bonuses and
// points follow from its cards and nobles, and phase pay holds a payment the
// seat can still decide. It returns the first problem found, nil if none.
func (s *State) Check() error {
	if s.NumPlayers < MinPlayers || s.NumPlayers > MaxPlayers {
		return fmt.Errorf("%d players", s.NumPlayers)
	}
	for _, check := range []func() error{s.checkTokens, s.checkCards, s.checkNobles, s.checkScores, s.checkDecision, s.checkTurn} {
		if err := check(); err != nil {
			return err
		}
	}
	return nil
}

func (s *State) checkTokens() error {
	players := int(s.NumPlayers)
	for g := White; g <= Gold; g++ {
		total := int(s.Bank[g])
		for i := 0; i < players; i++ {
			total += int(s.Players[i].Tokens[g])
		}
		want := int(setup[players].gems)
		if g == Gold {
			want = GoldTokens
		}
		if total != want {
			return fmt.Errorf("tokens: %d %s, want %d", total, g, want)
		}
	}
	for i := 0; i < players; i++ {
		if s.Phase == PhaseReturn && i == int(s.Seat) {
			continue
		}
		if held := s.Players[i].Tokens.Total(); held > TokenLimit {
			return fmt.Errorf("seat %d holds %d tokens, limit %d", i, held, TokenLimit)
		}
	}
	return nil
}

func (s *State) checkCards() error {
	cs := deck.Census[Card]{N: NumCards}
	if s.Buying != NoCard {
		cs.Add(s.Buying)
	}
	for l := 0; l < NumLevels; l++ {
		if s.DeckSize[l] > maxDeckSize {
			return fmt.Errorf("deck %d holds %d cards", l+1, s.DeckSize[l])
		}
		cs.Add(s.deck(l)...)
		for _, c := range s.Market[l] {
			if c != NoCard {
				cs.Add(c)
				continue
			}
			paying := s.Buying != NoCard && int(s.Buying) < NumCards && int(cards[s.Buying].Level) == l
			if s.DeckSize[l] != 0 && !paying {
				return fmt.Errorf("market level %d: empty slot beside a deck with cards", l+1)
			}
		}
	}
	for i := 0; i < int(s.NumPlayers); i++ {
		p := &s.Players[i]
		if p.NumReserved > MaxReserved {
			return fmt.Errorf("seat %d reserves %d cards", i, p.NumReserved)
		}
		cs.Add(p.Reserved[:p.NumReserved]...)
		if !cs.AddSet(&p.Bought) {
			return fmt.Errorf("seat %d holds cards not in the box", i)
		}
	}
	return cs.Err()
}

// checkNobles: the nobles revealed at the setup are either still revealed
// or with one seat.
func (s *State) checkNobles() error {
	var seen [NumNobleTiles]int
	total := 0
	for _, n := range s.Nobles {
		if n == NoNoble {
			continue
		}
		if int(n) >= NumNobleTiles {
			return fmt.Errorf("noble %d is not in the box", n)
		}
		seen[n]++
		total++
	}
	for i := 0; i < int(s.NumPlayers); i++ {
		if s.Players[i].Nobles>>NumNobleTiles != 0 {
			return fmt.Errorf("seat %d holds nobles not in the box", i)
		}
		for n := Noble(0); n < NumNobleTiles; n++ {
			if s.Players[i].Nobles.Has(n) {
				seen[n]++
				total++
			}
		}
	}
	for n, k := range seen {
		if k > 1 {
			return fmt.Errorf("noble %d appears %s", n, deck.Times(k))
		}
	}
	if want := int(setup[s.NumPlayers].nobles); total != want {
		return fmt.Errorf("nobles: %d, want %d", total, want)
	}
	return nil
}

func (s *State) checkScores() error {
	for i := 0; i < int(s.NumPlayers); i++ {
		p := &s.Players[i]
		points := NoblePoints * p.Nobles.Len()
		var bonus [NumColours]uint8
		for c := Card(0); c < NumCards; c++ {
			if p.Bought.Has(c) {
				points += int(cards[c].Points)
				bonus[cards[c].Bonus]++
			}
		}
		if points != int(p.Points) {
			return fmt.Errorf("seat %d: %d points, cards and nobles give %d", i, p.Points, points)
		}
		if bonus != p.Bonus {
			return fmt.Errorf("seat %d: bonuses %v, cards give %v", i, p.Bonus, bonus)
		}
	}
	return nil
}

// checkDecision: the phase is a decision the seat to act can make. Parse
// refuses a state that fails it too, so that a parsed game that is not over
// always has a legal action.
func (s *State) checkDecision() error {
	if int(s.Seat) >= int(s.NumPlayers) {
		return fmt.Errorf("seat %d of %d", s.Seat, s.NumPlayers)
	}
	p := &s.Players[s.Seat]
	switch s.Phase {
	case PhaseReturn:
		if p.Tokens.Total() <= TokenLimit {
			return fmt.Errorf("phase return but seat %d holds %d tokens", s.Seat, p.Tokens.Total())
		}
	case PhaseChooseNoble:
		if bits.OnesCount8(s.qualifying(p)) < 2 {
			return fmt.Errorf("phase noble but seat %d does not qualify for several nobles", s.Seat)
		}
	}
	return s.checkPayment()
}

// checkTurn: the seats take turns in order from seat 0; the final round
// starts exactly when a seat ends its turn at 15 points; and the game is
// over exactly when a round is complete in it or a whole round passed. A
// game not over thus has a decision left, and one over has its winners.
func (s *State) checkTurn() error {
	if uint32(s.Seat) != s.Turn%uint32(s.NumPlayers) {
		return fmt.Errorf("seat %d to act after %d turns", s.Seat, s.Turn)
	}
	ended := s.Passes >= s.NumPlayers || s.FinalRound && s.Seat == 0
	if s.Over() != ended {
		return fmt.Errorf("phase %s with final=%v, seat %d and %d passes", s.Phase, s.FinalRound, s.Seat, s.Passes)
	}
	reached := false
	for i := 0; i < int(s.NumPlayers); i++ {
		if s.Players[i].Points < WinningScore {
			continue
		}
		reached = true
		if inTurn := i == int(s.Seat) && s.Phase != PhaseMain && !s.Over(); !s.FinalRound && !inTurn {
			return fmt.Errorf("seat %d ended a turn at %d points but the final round has not started", i, s.Players[i].Points)
		}
	}
	if s.FinalRound && !reached {
		return fmt.Errorf("final round but no seat has %d points", WinningScore)
	}
	return nil
}

// checkPayment: phase pay, and only it, holds a card being paid for and
// gems due that the seat holds, with gold to pay instead.
func (s *State) checkPayment() error {
	paying := s.Phase == PhasePay
	if paying != (s.Buying != NoCard) {
		return fmt.Errorf("card being bought %d in phase %s", s.Buying, s.Phase)
	}
	if !paying {
		if s.Due != ([NumColours]uint8{}) {
			return fmt.Errorf("gems due %v in phase %s", s.Due, s.Phase)
		}
		return nil
	}
	if int(s.Seat) >= int(s.NumPlayers) {
		return fmt.Errorf("seat %d of %d", s.Seat, s.NumPlayers)
	}
	p := &s.Players[s.Seat]
	if !s.ChoosePayment || p.Tokens[Gold] == 0 || s.Due == ([NumColours]uint8{}) {
		return fmt.Errorf("phase pay with nothing to decide")
	}
	for g := White; g <= Black; g++ {
		if s.Due[g] > p.Tokens[g] {
			return fmt.Errorf("phase pay: %d %s due, seat holds %d", s.Due[g], g, p.Tokens[g])
		}
	}
	return nil
}
