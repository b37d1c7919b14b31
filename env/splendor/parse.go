package splendor

import (
	"fmt"
	"math/bits"
	"strconv"
	"strings"
)

// Parse reads a state written by String. It checks the structure (field
// order, ranges, every card and noble at most once, cards in their own
// level's deck and market row) and derives bonuses and points; it does not
// check that the position is reachable.
func Parse(text string) (State, error) {
	p := parser{fields: strings.Fields(text)}
	s := p.state()
	if p.err != nil {
		return State{}, fmt.Errorf("%w: %v", ErrNotation, p.err)
	}
	return s, nil
}

type parser struct {
	fields []string
	err    error
	cards  CardSet
	nobles NobleSet
}

func (p *parser) fail(format string, args ...any) {
	if p.err == nil {
		p.err = fmt.Errorf(format, args...)
	}
}

// field returns the value of the next field, which must be named key.
func (p *parser) field(key string) string {
	if len(p.fields) == 0 {
		p.fail("missing field %s", key)
		return ""
	}
	f := p.fields[0]
	p.fields = p.fields[1:]
	v, ok := strings.CutPrefix(f, key+"=")
	if !ok {
		p.fail("field %q where %s= was expected", f, key)
	}
	return v
}

func (p *parser) number(key string, lo, hi int) int {
	v := p.field(key)
	n, err := strconv.Atoi(v)
	if err != nil || n < lo || n > hi {
		p.fail("%s=%s is not a number in [%d,%d]", key, v, lo, hi)
	}
	return n
}

func (p *parser) state() State {
	var s State
	players := p.number("players", MinPlayers, MaxPlayers)
	s.NumPlayers = uint8(players)
	s.Seat = uint8(p.number("seat", 0, players-1))
	s.Phase = p.phase(p.field("phase"))
	s.Turn = uint32(p.number("turn", 0, 1<<31-1))
	s.FinalRound = p.number("final", 0, 1) == 1
	s.Passes = uint8(p.number("passes", 0, players))
	s.Bank = p.tokens(p.field("bank"))
	p.nobleSlots(&s, p.field("nobles"))
	p.market(&s, p.field("market"))
	p.decks(&s, p.field("decks"))
	for i := range s.Players {
		s.Players[i].Reserved = [MaxReserved]Card{NoCard, NoCard, NoCard}
		if i < players {
			p.player(&s.Players[i], p.field(fmt.Sprintf("p%d", i)))
		}
	}
	if len(p.fields) > 0 {
		p.fail("unexpected field %q", p.fields[0])
	}
	p.checkPhase(&s)
	return s
}

// checkPhase refuses a phase that contradicts the seat's holdings, so that a
// parsed game that is not over always has a legal action.
func (p *parser) checkPhase(s *State) {
	pl := &s.Players[s.Seat]
	switch s.Phase {
	case PhaseReturn:
		if pl.Tokens.Total() <= TokenLimit {
			p.fail("phase return but seat %d holds %d tokens", s.Seat, pl.Tokens.Total())
		}
	case PhaseChooseNoble:
		if bits.OnesCount8(s.qualifying(pl)) < 2 {
			p.fail("phase noble but seat %d does not qualify for several nobles", s.Seat)
		}
	}
}

func (p *parser) phase(name string) Phase {
	for i, n := range phaseNames {
		if n == name {
			return Phase(i)
		}
	}
	p.fail("unknown phase %q", name)
	return 0
}

func (p *parser) tokens(v string) Tokens {
	var t Tokens
	if len(v) != NumTokenKinds {
		p.fail("tokens %q: want %d digits", v, NumTokenKinds)
		return t
	}
	for i := range t {
		if v[i] < '0' || v[i] > '9' {
			p.fail("tokens %q: not a digit", v)
		}
		t[i] = v[i] - '0'
	}
	return t
}

// list splits a '.'-separated list of ids in [0,limit); '-' stands for an
// absent entry (-1) or, alone, for the empty list.
func (p *parser) list(v string, limit int) []int {
	if v == "-" {
		return nil
	}
	parts := strings.Split(v, ".")
	ids := make([]int, len(parts))
	for i, part := range parts {
		ids[i] = -1
		if part == "-" {
			continue
		}
		n, err := strconv.Atoi(part)
		if err != nil || n < 0 || n >= limit {
			p.fail("%q is not an id in [0,%d)", part, limit)
		}
		ids[i] = n
	}
	return ids
}

// card claims id as a card of the given level (-1: any level).
func (p *parser) card(id, level int) Card {
	if id < 0 || id >= NumCards {
		return NoCard
	}
	c := Card(id)
	if p.cards.Has(c) {
		p.fail("card %d appears twice", id)
	}
	if level >= 0 && int(cards[c].Level) != level {
		p.fail("card %d is not a level %d card", id, level+1)
	}
	p.cards.Add(c)
	return c
}

func (p *parser) noble(id int) Noble {
	n := Noble(id)
	if p.nobles.Has(n) {
		p.fail("noble %d appears twice", id)
	}
	p.nobles |= 1 << n
	return n
}

func (p *parser) nobleSlots(s *State, v string) {
	ids := p.list(v, NumNobleTiles)
	if len(ids) != MaxNobles {
		p.fail("nobles: want %d slots", MaxNobles)
	}
	for i := range s.Nobles {
		s.Nobles[i] = NoNoble
		if i < len(ids) && ids[i] >= 0 {
			s.Nobles[i] = p.noble(ids[i])
		}
	}
}

func (p *parser) levels(v, key string) []string {
	rows := strings.Split(v, "/")
	if len(rows) != NumLevels {
		p.fail("%s: want %d levels", key, NumLevels)
		return make([]string, NumLevels)
	}
	return rows
}

func (p *parser) market(s *State, v string) {
	for l, row := range p.levels(v, "market") {
		ids := p.list(row, NumCards)
		if len(ids) != MarketSlots {
			p.fail("market level %d: want %d slots", l+1, MarketSlots)
			continue
		}
		for slot, id := range ids {
			s.Market[l][slot] = p.card(id, l)
		}
	}
}

func (p *parser) decks(s *State, v string) {
	for l, row := range p.levels(v, "decks") {
		ids := p.list(row, NumCards)
		for i := range s.Decks[l] {
			s.Decks[l][i] = NoCard
		}
		for i, id := range ids {
			if id < 0 || i >= maxDeckSize {
				p.fail("deck level %d: bad card list", l+1)
				break
			}
			s.Decks[l][i] = p.card(id, l)
		}
		s.DeckSize[l] = uint8(min(len(ids), maxDeckSize))
	}
}

func (p *parser) player(pl *Player, v string) {
	parts := strings.Split(v, "|")
	if len(parts) != 4 {
		p.fail("seat %q: want tokens|bought|reserved|nobles", v)
		return
	}
	pl.Tokens = p.tokens(parts[0])
	for _, id := range p.list(parts[1], NumCards) {
		c := p.card(id, -1)
		if c == NoCard {
			continue
		}
		pl.Bought.Add(c)
		pl.Bonus[cards[c].Bonus]++
		pl.Points += cards[c].Points
	}
	p.reserved(pl, parts[2])
	for _, id := range p.list(parts[3], NumNobleTiles) {
		if id >= 0 {
			pl.Nobles |= 1 << p.noble(id)
			pl.Points += NoblePoints
		}
	}
}

func (p *parser) reserved(pl *Player, v string) {
	if v == "-" {
		return
	}
	for i, part := range strings.Split(v, ".") {
		if i >= MaxReserved {
			p.fail("more than %d reserved cards", MaxReserved)
			return
		}
		id, blind := strings.CutPrefix(part, "*")
		ids := p.list(id, NumCards)
		if len(ids) != 1 || ids[0] < 0 {
			p.fail("reserved card %q", part)
			return
		}
		pl.Reserved[i] = p.card(ids[0], -1)
		if blind {
			pl.Blind |= 1 << i
		}
		pl.NumReserved++
	}
}
