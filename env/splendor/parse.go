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
	p := parser{cards: notation.Cards[Card]{Start: levelStart[:], None: NoCard}}
	p.Reader = notation.NewReader(p.optionalFields(strings.Fields(text)))
	s := p.state()
	if err := p.Err(); err != nil {
		return State{}, fmt.Errorf("%w: %v", ErrNotation, err)
	}
	return s, nil
}

// parser reads the fields in order with the shared notation.Reader and
// remembers the cards and nobles already placed, to refuse a second copy.
type parser struct {
	notation.Reader
	cards  notation.Cards[Card]
	nobles NobleSet
	choose bool   // the text opens with payment=choose
	buying string // the value of the buying= field after the phase, if any
}

// optionalFields takes the payment choice's fields out of fields, so that the
// Reader sees the fields every state has, and returns those joined again.
// Each is recognised only in its own place: payment=choose first, buying=
// right after the phase.
func (p *parser) optionalFields(fields []string) string {
	if len(fields) > 0 && fields[0] == choosePaymentField {
		p.choose, fields = true, fields[1:]
	}
	if len(fields) > 3 && strings.HasPrefix(fields[3], buyingKey) {
		p.buying = strings.TrimPrefix(fields[3], buyingKey)
		fields = append(fields[:3], fields[4:]...)
	}
	return strings.Join(fields, " ")
}

func (p *parser) state() State {
	var s State
	players := p.Number("players", MinPlayers, MaxPlayers)
	s.NumPlayers = uint8(players)
	s.Seat = uint8(p.Number("seat", 0, players-1))
	s.Phase = Phase(p.Choice("phase", phaseNames[:]))
	p.payment(&s)
	s.Turn = uint32(p.Number("turn", 0, 1<<31-1))
	s.FinalRound = p.Flag("final")
	s.Passes = uint8(p.Number("passes", 0, players))
	p.Counts(p.Field("bank"), s.Bank[:])
	p.nobleSlots(&s, p.Field("nobles"))
	p.market(&s, p.Field("market"))
	p.decks(&s, p.Field("decks"))
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
	return s
}

// payment reads the payment choice's fields: the rule, and in phase pay the
// card being paid for and what is still due.
func (p *parser) payment(s *State) {
	s.ChoosePayment, s.Buying = p.choose, NoCard
	switch {
	case s.Phase == PhasePay && p.buying == "":
		p.Fail("phase pay without a %s field", buyingKey)
	case s.Phase != PhasePay && p.buying != "":
		p.Fail("%s%s outside phase pay", buyingKey, p.buying)
	case s.Phase == PhasePay:
		id, due, _ := strings.Cut(p.buying, ":")
		if ids := p.List(id, NumCards); len(ids) == 1 && ids[0] >= 0 {
			s.Buying = p.anyCard(ids[0])
		} else {
			p.Fail("%s%s: want a card id", buyingKey, p.buying)
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

// anyCard claims id as a card of any level.
func (p *parser) anyCard(id int) Card { return p.card(id, -1) }

// card claims id as a card of the given level (-1: any level).
func (p *parser) card(id, level int) Card { return p.cards.Claim(&p.Reader, id, level) }

func (p *parser) noble(id int) Noble {
	n := Noble(id)
	if p.nobles.Has(n) {
		p.Fail("noble %d appears twice", id)
	}
	p.nobles |= 1 << n
	return n
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
			s.Market[l][slot] = p.card(id, l)
		}
	}
}

func (p *parser) decks(s *State, v string) {
	p.cards.Decks(&p.Reader, v, s.DeckSize[:], func(l int) []Card { return s.Decks[l][:] })
}

func (p *parser) player(pl *Player, v string) {
	parts := strings.Split(v, "|")
	if len(parts) != 4 {
		p.Fail("seat %q: want tokens|bought|reserved|nobles", v)
		return
	}
	p.Counts(parts[0], pl.Tokens[:])
	for _, id := range p.List(parts[1], NumCards) {
		c := p.card(id, -1)
		if c == NoCard {
			continue
		}
		pl.Bought.Add(c)
		pl.Bonus[cards[c].Bonus]++
		pl.Points += cards[c].Points
	}
	pl.NumReserved, pl.Blind = notation.Reserved(&p.Reader, parts[2], NumCards, pl.Reserved[:], p.anyCard)
	for _, id := range p.List(parts[3], NumNobleTiles) {
		if id >= 0 {
			pl.Nobles |= 1 << p.noble(id)
			pl.Points += NoblePoints
		}
	}
}
