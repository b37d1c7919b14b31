package splendor

import (
	"errors"
	"fmt"
	"strings"

	"github.com/splendor-rl/splendor/internal/notation"
)

// The text notation is one line of space-separated key=value fields, always in
// this order (docs/notation.md has the full description):
//
//	players=2 seat=0 phase=main turn=0 final=0 passes=0 bank=444405
//	nobles=3.7.1.-.- market=12.33.4.-/…/… decks=…/…/… p0=… p1=…
//
// Token counts are six digits (white blue green red black gold). Cards are
// their ids (0–89, rows of splendor_cards.csv), nobles theirs (0–9), '-' is an
// empty slot or list. Decks are written bottom to top. A seat is
// tokens|bought|reserved|nobles, where a reserved card taken blind from a deck
// is marked with '*'. Bonuses and points are not written: they follow.
//
// A game with the payment choice (State.ChoosePayment) opens with the field
// payment=choose; a standard game's text has no such field, so it reads as
// it always did. In phase pay a field follows the phase: buying=, the card
// being paid for, a colon and five digits, what is still due in white blue
// green red black (buying=24:01200).

// String writes s in the text notation; Parse reads it back exactly.
func (s State) String() string {
	var b strings.Builder
	notation.WriteChoosePayment(&b, s.ChoosePayment)
	fmt.Fprintf(&b, "players=%d seat=%d phase=%s ", s.NumPlayers, s.Seat, s.Phase)
	if s.Phase == PhasePay {
		fmt.Fprintf(&b, "%s=%d:%s ", buyingKey, s.Buying, notation.Digits(s.Due[:]))
	}
	fmt.Fprintf(&b, "turn=%d final=%d passes=%d bank=%s nobles=",
		s.Turn, notation.Bit(s.FinalRound), s.Passes, notation.Digits(s.Bank[:]))
	notation.WriteList(&b, s.Nobles[:], func(n Noble) (int, bool) { return int(n), n != NoNoble })
	notation.WriteLevels(&b, "market", NumLevels, func(l int) []Card { return s.Market[l][:] }, cardID)
	notation.WriteLevels(&b, "decks", NumLevels, s.deck, cardID)
	for i := 0; i < int(s.NumPlayers); i++ {
		fmt.Fprintf(&b, " p%d=", i)
		s.Players[i].write(&b)
	}
	return b.String()
}

func (p *Player) write(b *strings.Builder) {
	b.WriteString(notation.Digits(p.Tokens[:]))
	b.WriteByte('|')
	notation.WriteMembers(b, p.Bought[:]...)
	b.WriteByte('|')
	notation.WriteReserved(b, p.Reserved[:p.NumReserved], p.Blind)
	b.WriteByte('|')
	notation.WriteMembers(b, uint64(p.Nobles))
}

// buyingKey names the field of phase pay: see the notation's description
// above.
const buyingKey = "buying"

func cardID(c Card) (int, bool) { return int(c), c != NoCard }

// deck is level l's undrawn cards, bottom to top.
func (s *State) deck(l int) []Card { return s.Decks[l][:s.DeckSize[l]] }

// ErrNotation reports text that is not a valid state.
var ErrNotation = errors.New("splendor: bad notation")
