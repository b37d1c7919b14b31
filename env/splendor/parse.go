package splendor

import (
	"fmt"
	"strings"

	"github.com/splendor-rl/splendor/internal/notation"
)

// Parse reads a state written by String. It checks the structure (field
// order, ranges, every card and noble at most once, cards in their own
// level's deck and market row) and derives bonuses and points; it does not
// check that the position is reachable.
func Parse(text string) (State, error) {
	p := parser{notation.NewCardReader(text, levelStart[:], NoCard)}
	var s State
	s.ChoosePayment = p.Present(notation.ChoosePayment)
	players := p.Number("players", MinPlayers, MaxPlayers)
	s.NumPlayers = uint8(players)
	s.Seat = uint8(p.Number("seat", 0, players-1))
	s.Phase = Phase(p.Choice("phase", phaseNames[:]))
	p.payment(&s, p.Optional(buyingKey))
	s.Turn = uint32(p.Number("turn", 0, 1<<31-1))
	s.FinalRound = p.Flag("final")
	s.Passes = uint8(p.Number("passes", 0, players))
	p.Counts(p.Field("bank"), s.Bank[:])
	p.nobleSlots(&s, p.Field("nobles"))
	p.market(&s, p.Field("market"))
	p.Decks(p.Field("decks"), s.DeckSize[:], func(l int) []Card { return s.Decks[l][:] })
	for i := range s.Players {
		s.Players[i].Reserved = [MaxReserved]Card{NoCard, NoCard, NoCard}
		if i < players {
			p.player(&s.Players[i], p.Field(fmt.Sprintf("p%d", i)))
		}
	}
	p.End()
	if p.Err() == nil { // the seat is only known to be in range once all read well
		p.checkPhase(&s)
	}
	return notation.Parsed(s, &p.Reader, ErrNotation)
}

// parser reads the fields in order: the shared notation.CardReader, with
// this game's fields as its methods.
type parser struct{ notation.CardReader[Card] }

// payment reads the value of the field buying= ("" when the text has
// none), written in phase pay only: the card being paid for and what is
// still due.
func (p *parser) payment(s *State, buying string) {
	s.Buying = NoCard
	switch {
	case s.Phase == PhasePay && buying == "":
		p.Fail("phase pay without a %s= field", buyingKey)
	case s.Phase != PhasePay && buying != "":
		p.Fail("%s=%s outside phase pay", buyingKey, buying)
	case s.Phase == PhasePay:
		id, due, _ := strings.Cut(buying, ":")
		if ids := p.List(id, NumCards); len(ids) == 1 && ids[0] >= 0 {
			s.Buying = p.AnyCard(ids[0])
		} else {
			p.Fail("%s=%s: want a card id", buyingKey, buying)
		}
		p.Counts(due, s.Due[:])
	}
}

// checkPhase refuses a phase that contradicts the seat's holdings (see
// State.checkDecision), so that a parsed game that is not over always has a
// legal action.
func (p *parser) checkPhase(s *State) {
	if err := s.checkDecision(); err != nil {
		p.Fail("%v", err)
	}
}

func (p *parser) noble(id int) Noble {
	p.Tile("noble", id)
	return Noble(id)
}

func (p *parser) nobleSlots(s *State, v string) {
	ids := p.List(v, NumNobleTiles)
	if len(ids) != MaxNobles {
		p.Fail("nobles: want %d slots", MaxNobles)
	}
	for i := range s.Nobles {
		s.Nobles[i] = NoNoble
		if i < len(ids) && ids[i] >= 0 {
			s.Nobles[i] = p.noble(ids[i])
		}
	}
}

func (p *parser) market(s *State, v string) {
	for l, row := range p.Levels(v, "market", NumLevels) {
		ids := p.List(row, NumCards)
		if len(ids) != MarketSlots {
			p.Fail("market level %d: want %d slots", l+1, MarketSlots)
			continue
		}
		for slot, id := range ids {
			s.Market[l][slot] = p.Card(id, l)
		}
	}
}

func (p *parser) player(pl *Player, v string) {
	parts := strings.Split(v, "|")
	if len(parts) != 4 {
		p.Fail("seat %q: want tokens|bought|reserved|nobles", v)
		return
	}
	p.Counts(parts[0], pl.Tokens[:])
	for _, id := range p.List(parts[1], NumCards) {
		c := p.Card(id, -1)
		if c == NoCard {
			continue
		}
		pl.Bought.Add(c)
		pl.Bonus[cards[c].Bonus]++
		pl.Points += cards[c].Points
	}
	pl.NumReserved, pl.Blind = notation.Reserved(&p.Reader, parts[2], NumCards, pl.Reserved[:], p.AnyCard)
	for _, id := range p.List(parts[3], NumNobleTiles) {
		if id >= 0 {
			pl.Nobles |= 1 << p.noble(id)
			pl.Points += NoblePoints
		}
	}
}
