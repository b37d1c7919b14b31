package duel

import (
	"fmt"
	"math/bits"
	"strconv"
	"strings"
)

// Parse reads a state written by String. It checks the structure (field
// order, ranges, every card and royal at most once, cards in their own
// level's deck and pyramid row, joker colours, a phase the seat can act in)
// and derives bonuses, points and crowns; it does not check that the
// position is reachable, nor that the tokens add up to the box.
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
	royals RoyalSet
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
	s.Seat = uint8(p.number("seat", 0, NumPlayers-1))
	s.Phase = p.phase(p.field("phase"))
	s.Turn = uint32(p.number("turn", 0, 1<<31-1))
	s.Passes = uint8(p.number("passes", 0, NumPlayers))
	s.Again = p.number("again", 0, 1) == 1
	s.Replenished = p.number("replenished", 0, 1) == 1
	s.Pending = p.pending(p.field("pending"))
	s.Chance = p.chance(p.field("chance"))
	s.Bag = p.tokens(p.field("bag"))
	p.board(&s, p.field("board"))
	p.pyramid(&s, p.field("pyramid"))
	p.decks(&s, p.field("decks"))
	for i := range s.JokerColour {
		s.JokerColour[i] = NoGem
	}
	for i := range s.Players {
		p.player(&s, &s.Players[i], p.field(fmt.Sprintf("p%d", i)))
	}
	if len(p.fields) > 0 {
		p.fail("unexpected field %q", p.fields[0])
	}
	if s.Players[0].Privileges+s.Players[1].Privileges > NumPrivileges {
		p.fail("more than %d privileges", NumPrivileges)
	}
	if p.err == nil {
		p.checkPhase(&s)
	}
	return s
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

func (p *parser) pending(v string) Card {
	if v == "-" {
		return NoCard
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 || n >= NumCards {
		p.fail("pending=%s is not a card id", v)
		return NoCard
	}
	return Card(n) // claimed by the seat's bought cards; checkPhase checks it
}

func (p *parser) chance(v string) uint64 {
	n, err := strconv.ParseUint(v, 16, 64)
	if err != nil || len(v) != 16 {
		p.fail("chance=%s: want 16 hex digits", v)
	}
	return n
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

func (p *parser) board(s *State, v string) {
	rows := strings.Split(v, "/")
	if len(rows) != BoardSide {
		p.fail("board: want %d rows", BoardSide)
		return
	}
	for r, row := range rows {
		if len(row) != BoardSide {
			p.fail("board row %d: want %d cells", r+1, BoardSide)
			return
		}
		for col := 0; col < BoardSide; col++ {
			g, ok := gemByLetter(row[col])
			if !ok && row[col] != '.' {
				p.fail("board row %d: unknown token %q", r+1, row[col])
			}
			s.Board[r*BoardSide+col] = g
		}
	}
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
			continue
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

func (p *parser) levels(v, key string) []string {
	rows := strings.Split(v, "/")
	if len(rows) != NumLevels {
		p.fail("%s: want %d levels", key, NumLevels)
		return make([]string, NumLevels)
	}
	return rows
}

func (p *parser) pyramid(s *State, v string) {
	for l, row := range p.levels(v, "pyramid") {
		ids := p.list(row, NumCards)
		if len(ids) != PyramidStart[l+1]-PyramidStart[l] {
			p.fail("pyramid level %d: want %d slots", l+1, PyramidStart[l+1]-PyramidStart[l])
			continue
		}
		for i, id := range ids {
			s.Pyramid[PyramidStart[l]+i] = p.card(id, l)
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

func (p *parser) player(s *State, pl *Player, v string) {
	pl.Reserved = [MaxReserved]Card{NoCard, NoCard, NoCard}
	parts := strings.Split(v, "|")
	if len(parts) != 5 {
		p.fail("seat %q: want tokens|privileges|bought|reserved|royals", v)
		return
	}
	pl.Tokens = p.tokens(parts[0])
	pl.Privileges = uint8(p.digit(parts[1], NumPrivileges))
	p.bought(s, pl, parts[2])
	p.reserved(pl, parts[3])
	for _, id := range p.list(parts[4], NumRoyals) {
		if id < 0 {
			continue
		}
		r := Royal(id)
		if p.royals.Has(r) {
			p.fail("royal %d appears twice", id)
		}
		p.royals |= 1 << r
		pl.Royals |= 1 << r
		pl.Points += royals[r].Points
	}
}

func (p *parser) digit(v string, hi int) int {
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 || n > hi {
		p.fail("%q is not a number in [0,%d]", v, hi)
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
				p.fail("bought card %q: bad colour", part)
				return
			}
			colour, part = g, part[:n-1]
		}
		ids := p.list(part, NumCards)
		if len(ids) != 1 || ids[0] < 0 {
			p.fail("bought card %q", part)
			return
		}
		c := p.card(ids[0], -1)
		p.own(s, pl, c, colour)
	}
}

// own adds bought card c to pl with its derived bonus, points and crowns.
func (p *parser) own(s *State, pl *Player, c Card, colour Gem) {
	info := &cards[c]
	switch {
	case !info.Joker && colour != NoGem:
		p.fail("card %d is not a joker but has a colour", c)
	case info.Joker && colour == NoGem && !(s.Phase == PhaseJoker && s.Pending == c):
		p.fail("joker %d has no colour", c)
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

// checkPhase refuses a phase that contradicts the position, so that a parsed
// game that is not over always has a legal action and a decision phase is
// only entered with several options (one is taken without a decision).
func (p *parser) checkPhase(s *State) {
	pl, opp := &s.Players[s.Seat], &s.Players[1-s.Seat]
	if (s.Pending != NoCard) != (s.Phase == PhaseJoker || s.Phase == PhaseToken) {
		p.fail("pending=%d needs phase joker or token", s.Pending)
		return
	}
	if s.Pending != NoCard && !pl.Bought.Has(s.Pending) {
		p.fail("pending card %d is not bought by seat %d", s.Pending, s.Seat)
		return
	}
	several := func(set uint32) bool { return bits.OnesCount32(set) >= 2 }
	switch s.Phase {
	case PhaseReserve:
		if pl.NumReserved >= MaxReserved || !several(s.reserveTargets()) {
			p.fail("phase reserve but seat %d cannot choose a card to reserve", s.Seat)
		}
	case PhaseJoker:
		if !cards[s.Pending].Joker || s.cardColour(s.Pending) != NoGem || !several(pl.bonusColours()) {
			p.fail("phase joker needs an uncoloured joker pending and several bonus colours")
		}
	case PhaseToken:
		c := s.Pending
		if cards[c].Ability != AbilityToken || !several(s.cellsOf(s.cardColour(c))) {
			p.fail("phase token needs a token card pending and several cells of its colour")
		}
	case PhaseSteal:
		if !several(uint32(opp.Tokens.kinds())) {
			p.fail("phase steal but the opponent holds fewer than two kinds")
		}
	case PhaseRoyal:
		if !pl.royalOwed() || !several(s.availableRoyals()) {
			p.fail("phase royal but seat %d has no royal card to choose", s.Seat)
		}
	case PhaseReturn:
		if pl.Tokens.Total() <= TokenLimit {
			p.fail("phase return but seat %d holds %d tokens", s.Seat, pl.Tokens.Total())
		}
	case PhaseOver:
		if s.Passes < NumPlayers && pl.Victory() == 0 {
			p.fail("phase over but seat %d has not won and the game is not blocked", s.Seat)
		}
	}
}
