package duel

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/splendor-rl/splendor/internal/notation"
)

// The text notation is one line of space-separated key=value fields, always in
// this order (docs/duel-rules.md has the full description):
//
//	seat=0 phase=main turn=0 passes=0 again=0 replenished=0 pending=-
//	chance=1f0c…(16 hex digits) bag=0000000 board=rgkbw/…/…/…/…
//	pyramid=12.3.27.0.8/40.31.52.37/58.66.60 decks=…/…/… p0=… p1=…
//
// A game of the "choose payment" variant starts with the field
// payment=choose; the standard game has no such field, so its text does not
// depend on the variant's existence. In phase pay, pending is the card being paid for, a colon
// and six digits: what is still due, white blue green red black pearl
// (pending=12:010010).
//
// Token counts are seven digits (white blue green red black pearl gold). The
// board is five rows, top first, of five cells, left first: w b g r k p for
// the gem colours and pearl, o for gold, '.' for an empty cell. Cards are
// their ids (0–66, rows of duel_cards.csv), royals theirs (0–3, rows of
// duel_royals.csv), '-' is an empty slot or list. The pyramid is levels 1, 2,
// 3 (5, 4, 3 slots); decks are written bottom to top. A seat is
// tokens|privileges|bought|reserved|royals, where a bought joker carries the
// letter of its colour (25r) and a card reserved blind from a deck is marked
// with '*'. Bonuses, points and crowns are not written: they follow.

// ErrNotation reports text that is not a valid state.
var ErrNotation = errors.New("duel: bad notation")

// String writes s in the text notation; Parse reads it back exactly.
func (s State) String() string {
	var b strings.Builder
	notation.WriteChoosePayment(&b, s.ChoosePayment)
	fmt.Fprintf(&b, "seat=%d phase=%s turn=%d passes=%d again=%d replenished=%d pending=",
		s.Seat, s.Phase, s.Turn, s.Passes, notation.Bit(s.Again), notation.Bit(s.Replenished))
	notation.WriteList(&b, []Card{s.Pending}, cardID)
	if s.Phase == PhasePay {
		b.WriteString(":" + notation.Digits(s.Due[:]))
	}
	fmt.Fprintf(&b, " chance=%016x bag=%s board=", s.Chance, notation.Digits(s.Bag[:]))
	for c, g := range s.Board {
		if c > 0 && c%BoardSide == 0 {
			b.WriteByte('/')
		}
		b.WriteByte(cellLetter(g))
	}
	notation.WriteLevels(&b, "pyramid", NumLevels, func(l int) []Card { return s.Pyramid[PyramidStart[l]:PyramidStart[l+1]] }, cardID)
	notation.WriteLevels(&b, "decks", NumLevels, s.deck, cardID)
	for i := range s.Players {
		fmt.Fprintf(&b, " p%d=", i)
		s.writePlayer(&b, &s.Players[i])
	}
	return b.String()
}

func (s *State) writePlayer(b *strings.Builder, p *Player) {
	fmt.Fprintf(b, "%s|%d|", notation.Digits(p.Tokens[:]), p.Privileges)
	n := 0
	for c := Card(0); c < NumCards; c++ {
		if !p.Bought.Has(c) {
			continue
		}
		if n > 0 {
			b.WriteByte('.')
		}
		n++
		b.WriteString(strconv.Itoa(int(c)))
		if g := s.cardColour(c); cards[c].Joker && g != NoGem {
			b.WriteByte(gemLetters[g])
		}
	}
	if n == 0 {
		b.WriteByte('-')
	}
	b.WriteByte('|')
	notation.WriteReserved(b, p.Reserved[:p.NumReserved], p.Blind)
	b.WriteByte('|')
	notation.WriteMembers(b, uint64(p.Royals))
}

func cardID(c Card) (int, bool) { return int(c), c != NoCard }

// deck is level l's undrawn cards, bottom to top.
func (s *State) deck(l int) []Card { return s.Decks[l][:s.DeckSize[l]] }

func cellLetter(g Gem) byte {
	if g < NumTokenKinds {
		return gemLetters[g]
	}
	return '.'
}
