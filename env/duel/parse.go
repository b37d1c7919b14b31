package duel

import (
	"fmt"
	"math/bits"
	"strconv"
	"strings"

	"github.com/splendor-rl/splendor/internal/notation"
)

// Parse reads a state written by String. It checks the structure (field
// order, ranges, every card and royal at most once, cards in their own
// level's deck and pyramid row, joker colours, a phase the seat can act in)
// and derives bonuses, points and crowns; it does not check that the
// position is reachable, nor that the tokens add up to the box.
func Parse(text string) (State, error) {
	p := parser{notation.NewCardReader(text, levelStart[:], NoCard)}
	s := State{ChoosePayment: p.Present(notation.ChoosePayment)}
	s.Seat = uint8(p.Number("seat", 0, NumPlayers-1))
	s.Phase = Phase(p.Choice("phase", phaseNames[:]))
	s.Turn = uint32(p.Number("turn", 0, 1<<31-1))
	s.Passes = uint8(p.Number("passes", 0, NumPlayers))
	s.Again = p.Flag("again")
	s.Replenished = p.Flag("replenished")
	p.pending(&s, p.Field("pending"))
	s.Chance = p.chance(p.Field("chance"))
	p.Counts(p.Field("bag"), s.Bag[:])
	p.board(&s, p.Field("board"))
	p.pyramid(&s, p.Field("pyramid"))
	p.Decks(p.Field("decks"), s.DeckSize[:], func(l int) []Card { return s.Decks[l][:] })
	for i := range s.JokerColour {
		s.JokerColour[i] = NoGem
	}
	for i := range s.Players {
		p.player(&s, &s.Players[i], p.Field(fmt.Sprintf("p%d", i)))
	}
	p.End()
	if s.Players[0].Privileges+s.Players[1].Privileges > NumPrivileges {
		p.Fail("more than %d privileges", NumPrivileges)
	}
	if p.Err() == nil {
		p.checkPhase(&s)
	}
	return notation.Parsed(s, &p.Reader, ErrNotation)
}

// parser reads the fields in order: the shared notation.CardReader, with
// this game's fields as its methods.
type parser struct{ notation.CardReader[Card] }

// pending reads the pending card; in phase pay it is not the seat's yet, so
// it is claimed here, and what is still due follows it.
func (p *parser) pending(s *State, v string) {
	s.Pending = NoCard
	id, due, paying := strings.Cut(v, ":")
	if paying != (s.Phase == PhasePay) {
		p.Fail("pending=%s: what is due is written in phase pay, and only there", v)
		return
	}
	if paying {
		p.Counts(due, s.Due[:])
	}
	if id == "-" {
		return
	}
	n, err := strconv.Atoi(id)
	if err != nil || n < 0 || n >= NumCards {
		p.Fail("pending=%s is not a card id", v)
		return
	}
	s.Pending = Card(n) // claimed by the seat's bought cards, but in phase pay; checkPhase checks it
	if paying {
		p.AnyCard(n)
	}
}

func (p *parser) chance(v string) uint64 {
	n, err := strconv.ParseUint(v, 16, 64)
	if err != nil || len(v) != 16 {
		p.Fail("chance=%s: want 16 hex digits", v)
	}
	return n
}

func (p *parser) board(s *State, v string) {
	rows := strings.Split(v, "/")
	if len(rows) != BoardSide {
		p.Fail("board: want %d rows", BoardSide)
		return
	}
	for r, row := range rows {
		if len(row) != BoardSide {
			p.Fail("board row %d: want %d cells", r+1, BoardSide)
			return
		}
		for col := 0; col < BoardSide; col++ {
			g, ok := gemByLetter(row[col])
			if !ok && row[col] != '.' {
				p.Fail("board row %d: unknown token %q", r+1, row[col])
			}
			s.Board[r*BoardSide+col] = g
		}
	}
}

func (p *parser) pyramid(s *State, v string) {
	for l, row := range p.Levels(v, "pyramid", NumLevels) {
		ids := p.List(row, NumCards)
		if len(ids) != PyramidStart[l+1]-PyramidStart[l] {
			p.Fail("pyramid level %d: want %d slots", l+1, PyramidStart[l+1]-PyramidStart[l])
			continue
		}
		for i, id := range ids {
			s.Pyramid[PyramidStart[l]+i] = p.Card(id, l)
		}
	}
}

func (p *parser) player(s *State, pl *Player, v string) {
	pl.Reserved = [MaxReserved]Card{NoCard, NoCard, NoCard}
	parts := strings.Split(v, "|")
	if len(parts) != 5 {
		p.Fail("seat %q: want tokens|privileges|bought|reserved|royals", v)
		return
	}
	p.Counts(parts[0], pl.Tokens[:])
	pl.Privileges = uint8(p.digit(parts[1], NumPrivileges))
	p.bought(s, pl, parts[2])
	pl.NumReserved, pl.Blind = notation.Reserved(&p.Reader, parts[3], NumCards, pl.Reserved[:], p.AnyCard)
	for _, id := range p.List(parts[4], NumRoyals) {
		if id < 0 {
			continue
		}
		p.Tile("royal", id)
		r := Royal(id)
		pl.Royals |= 1 << r
		pl.Points += royals[r].Points
	}
}

func (p *parser) digit(v string, hi int) int {
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 || n > hi {
		p.Fail("%q is not a number in [0,%d]", v, hi)
	}
	return n
}

// bought reads the bought cards, a joker's colour letter after its id.
func (p *parser) bought(s *State, pl *Player, v string) {
	if v == "-" {
		return
	}
	for _, part := range strings.Split(v, ".") {
		colour := NoGem
		if n := len(part); n > 0 && (part[n-1] < '0' || part[n-1] > '9') {
			g, ok := gemByLetter(part[n-1])
			if !ok || g > Black {
				p.Fail("bought card %q: bad colour", part)
				return
			}
			colour, part = g, part[:n-1]
		}
		ids := p.List(part, NumCards)
		if len(ids) != 1 || ids[0] < 0 {
			p.Fail("bought card %q", part)
			return
		}
		c := p.Card(ids[0], -1)
		p.own(s, pl, c, colour)
	}
}

// own adds bought card c to pl with its derived bonus, points and crowns.
func (p *parser) own(s *State, pl *Player, c Card, colour Gem) {
	info := &cards[c]
	switch {
	case !info.Joker && colour != NoGem:
		p.Fail("card %d is not a joker but has a colour", c)
	case info.Joker && colour == NoGem && !(s.Phase == PhaseJoker && s.Pending == c):
		p.Fail("joker %d has no colour", c)
	}
	pl.Bought.Add(c)
	pl.Points += info.Points
	pl.Crowns += info.Crowns
	if info.Joker && colour != NoGem {
		s.placeJoker(pl, c, colour)
	}
	if info.Colour != NoGem {
		pl.Bonus[info.Colour] += info.Bonuses
		pl.ColourPoints[info.Colour] += info.Points
	}
}

// checkPhase refuses a phase that contradicts the position, so that a parsed
// game that is not over always has a legal action and a decision phase is
// only entered with several options (one is taken without a decision).
func (p *parser) checkPhase(s *State) {
	if p.checkPending(s) {
		p.checkRefill(s)
		p.checkDecision(s)
	}
}

// checkPending: a card is pending exactly in phases pay, joker and token; in
// phase pay it is not the seat's yet (pending claimed it), in the others it
// is.
func (p *parser) checkPending(s *State) bool {
	pending := s.Phase == PhasePay || s.Phase == PhaseJoker || s.Phase == PhaseToken
	switch {
	case (s.Pending != NoCard) != pending:
		p.Fail("pending=%d needs phase pay, joker or token", s.Pending)
	case s.Phase != PhasePay && s.Pending != NoCard && !s.Players[s.Seat].Bought.Has(s.Pending):
		p.Fail("pending card %d is not bought by seat %d", s.Pending, s.Seat)
	default:
		return true
	}
	return false
}

// checkRefill: a pyramid slot is empty beside a deck that has cards only
// while its refill waits for the end of the turn, that is after the turn's
// mandatory action took the card: never in phases main and reserve, and for
// one slot at most (one mandatory action a turn).
func (p *parser) checkRefill(s *State) {
	waiting := 0
	for k, c := range s.Pyramid {
		if c == NoCard && s.DeckSize[levelOf(k)] > 0 {
			waiting++
		}
	}
	if waiting > 1 || waiting == 1 && (s.Phase == PhaseMain || s.Phase == PhaseReserve) {
		p.Fail("%d empty pyramid slots beside cards in their deck in phase %s", waiting, s.Phase)
	}
}

// checkDecision: the seat to act has the decision its phase asks for.
func (p *parser) checkDecision(s *State) {
	pl, opp := &s.Players[s.Seat], &s.Players[1-s.Seat]
	several := func(set uint32) bool { return bits.OnesCount32(set) >= 2 }
	switch s.Phase {
	case PhaseReserve:
		if pl.NumReserved >= MaxReserved || !several(s.reserveTargets()) {
			p.Fail("phase reserve but seat %d cannot choose a card to reserve", s.Seat)
		}
	case PhasePay:
		if !s.ChoosePayment || pl.Tokens[Gold] == 0 || !payable(&cards[s.Pending], pl, &s.Due) {
			p.Fail("phase pay needs the choose-payment variant, gold, and gems or pearls due that seat %d holds", s.Seat)
		}
	case PhaseJoker:
		if !cards[s.Pending].Joker || s.cardColour(s.Pending) != NoGem || !several(pl.bonusColours()) {
			p.Fail("phase joker needs an uncoloured joker pending and several bonus colours")
		}
	case PhaseToken:
		c := s.Pending
		if cards[c].Ability != AbilityToken || !several(s.cellsOf(s.cardColour(c))) {
			p.Fail("phase token needs a token card pending and several cells of its colour")
		}
	case PhaseSteal:
		if !several(opp.Tokens.kinds()) {
			p.Fail("phase steal but the opponent holds fewer than two kinds")
		}
	case PhaseRoyal:
		if !pl.royalOwed() || !several(s.availableRoyals()) {
			p.Fail("phase royal but seat %d has no royal card to choose", s.Seat)
		}
	case PhaseReturn:
		if pl.Tokens.Total() <= TokenLimit {
			p.Fail("phase return but seat %d holds %d tokens", s.Seat, pl.Tokens.Total())
		}
	case PhaseOver:
		if s.Passes < NumPlayers && pl.Victory() == 0 {
			p.Fail("phase over but seat %d has not won and the game is not blocked", s.Seat)
		}
	}
}

// payable reports whether due is something left to pay for a card in phase
// pay: not nothing, within the printed cost, and covered by the seat's gems
// and pearls (gold paid at once for what they could not cover).
func payable(info *CardInfo, pl *Player, due *[NumCostKinds]uint8) bool {
	for k, n := range due {
		if n > info.Cost[k] || n > pl.Tokens[k] {
			return false
		}
	}
	return *due != [NumCostKinds]uint8{}
}
