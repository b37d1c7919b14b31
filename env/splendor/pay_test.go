package splendor_test

import (
	"testing"

	"github.com/splendor-rl/splendor/env/splendor"
	"github.com/splendor-rl/splendor/internal/rulestest"
	"github.com/stretchr/testify/assert"
)

// Card 1 (white, costs 3 blue) sits in L1 slot1; while it is being paid for
// the slot is empty, and once paid it refills with 6, the L1 deck's top.
const (
	market1 = "market=1.24.36.22/40.41.42.43/70.71.72.73"
	paying1 = "market=-.24.36.22/40.41.42.43/70.71.72.73"
	bought1 = "market=6.24.36.22/40.41.42.43/70.71.72.73"
	drawn   = "decks=5/46/74"
)

func TestChoosingPayment(t *testing.T) {
	rulestest.RunRuleCases(t, &engine, []ruleCase{
		{"gold may pay for a gem the seat holds: the card waits, its slot empty",
			choosing(market1, "bank=414444", "p0=030001|-|-|-"), []string{"buy L1 slot1"},
			choosing(paying1, "phase=pay", "buying=1:03000", "bank=414444", "p0=030001|-|-|-")},
		{"gold for a blue: no gold left, the rest is paid in blue and the slot refills",
			choosing(market1, "bank=414444", "p0=030001|-|-|-"), []string{"buy L1 slot1", "pay gold for blue"},
			choosing(bought1, drawn, "bank=434445", "p0=010000|1|-|-", "seat=1", "turn=1")},
		{"pay done keeps the gold: the same as the automatic payment",
			choosing(market1, "bank=414444", "p0=030001|-|-|-"), []string{"buy L1 slot1", "pay done"},
			choosing(bought1, drawn, "bank=444444", "p0=000001|1|-|-", "seat=1", "turn=1")},
		{"several golds: one decision each",
			choosing(market1, "bank=414442", "p0=030003|-|-|-"),
			[]string{"buy L1 slot1", "pay gold for blue", "pay gold for blue"},
			choosing(paying1, "phase=pay", "buying=1:01000", "bank=414444", "p0=030001|-|-|-")},
		{"several golds, then pay done",
			choosing(market1, "bank=414442", "p0=030003|-|-|-"),
			[]string{"buy L1 slot1", "pay gold for blue", "pay gold for blue", "pay done"},
			choosing(bought1, drawn, "bank=424444", "p0=020001|1|-|-", "seat=1", "turn=1")},
		{"all in gold by choice: nothing left due ends the payment",
			choosing(market1, "bank=414442", "p0=030003|-|-|-"),
			[]string{"buy L1 slot1", "pay gold for blue", "pay gold for blue", "pay gold for blue"},
			choosing(bought1, drawn, "bank=414445", "p0=030000|1|-|-", "seat=1", "turn=1")},
		{"bonuses lower what is due", choosing(market1, "bank=434444", "p0=010001|8.9|-|-"),
			[]string{"buy L1 slot1"},
			choosing(paying1, "phase=pay", "buying=1:01000", "bank=434444", "p0=010001|8.9|-|-")},
	})
}

// Card 0 costs 3 white, 1 blue, 1 black. The seat holds 2 white, 1 blue,
// 1 black and 2 gold: one gold must pay for the missing white at once, the
// other may pay for any colour still due.
func TestGoldThatMustPayIsPaidFirst(t *testing.T) {
	before := choosing("bank=234433", "p0=210012|-|-|-")
	rulestest.RunRuleCases(t, &engine, []ruleCase{
		{"the shortfall is paid in gold before the seat decides", before, []string{"buy L1 slot1"},
			choosing("phase=pay", "buying=0:21001", "market=-.24.36.22/40.41.42.43/70.71.72.73",
				"bank=234434", "p0=210011|-|-|-")},
		{"then gold for black: gems pay the rest", before, []string{"buy L1 slot1", "pay gold for black"},
			choosing(bought1, drawn, "bank=444435", "p0=000010|0|-|-", "seat=1", "turn=1")},
	})
	s := engine.MustParse(t, before)
	engine.Play(t, &s, "buy L1 slot1")
	assert.Equal(t, []string{"pay gold for white", "pay gold for blue", "pay gold for black", "pay done"},
		engine.LegalLabels(&s), "gold may pay only for colours still due, and nothing else can be done")
	for _, l := range []string{"pay gold for green", "pay gold for red", "take white blue green", "buy L1 slot2",
		"return gold", "pass"} {
		engine.AssertRefused(t, s, l)
	}
}

// With no real choice (a different payment would give back the same tokens)
// the payment is settled at once, exactly as the automatic one.
func TestNoChoiceNoPaymentPhase(t *testing.T) {
	rulestest.RunRuleCases(t, &engine, []ruleCase{
		{"no gold", choosing(market1, "bank=414445", "p0=030000|-|-|-"), []string{"buy L1 slot1"},
			choosing(bought1, drawn, "bank=444445", "p0=000000|1|-|-", "seat=1", "turn=1")},
		{"gold only covers what the gems do not", choosing(market1, "bank=424444", "p0=020001|-|-|-"),
			[]string{"buy L1 slot1"},
			choosing(bought1, drawn, "bank=444445", "p0=000000|1|-|-", "seat=1", "turn=1")},
		{"all in gold: the seat holds none of the colour", choosing(market1, "bank=444442", "p0=000003|-|-|-"),
			[]string{"buy L1 slot1"},
			choosing(bought1, drawn, "bank=444445", "p0=000000|1|-|-", "seat=1", "turn=1")},
		{"gold to spare but no gem due", choosing(market1, "bank=444440", "p0=000005|-|-|-"),
			[]string{"buy L1 slot1"},
			choosing(bought1, drawn, "bank=444443", "p0=000002|1|-|-", "seat=1", "turn=1")},
		{"bonuses pay it all", choosing(market1, "p0=010001|8.9.10|-|-"), []string{"buy L1 slot1"},
			choosing(bought1, drawn, "p0=010001|1.8.9.10|-|-", "seat=1", "turn=1")},
		{"automatic payment never asks", pos(market1, "bank=414444", "p0=030001|-|-|-"), []string{"buy L1 slot1"},
			pos(bought1, drawn, "bank=444444", "p0=000001|1|-|-", "seat=1", "turn=1")},
	})
}

func TestPayActionsOnlyInThePaymentPhase(t *testing.T) {
	for _, text := range []string{pos(market1, "p0=030001|-|-|-"), choosing(market1, "p0=030001|-|-|-")} {
		s := engine.MustParse(t, text)
		for _, l := range []string{"pay gold for blue", "pay done"} {
			engine.AssertRefused(t, s, l)
		}
	}
}

// A reserved card leaves the hand as the purchase is declared; a card
// reserved blind is shown (it is bought, so everyone sees it), and the
// market does not change.
func TestPayingForAReservedCard(t *testing.T) {
	before := choosing("bank=414444", "p0=030001|-|75.*1.*45|-")
	rulestest.RunRuleCases(t, &engine, []ruleCase{
		{"the card waits outside the hand", before, []string{"buy reserved2"},
			choosing("phase=pay", "buying=1:03000", "bank=414444", "p0=030001|-|75.*45|-")},
		{"paid, it is the seat's; no slot refills", before, []string{"buy reserved2", "pay done"},
			choosing("bank=444444", "p0=000001|1|75.*45|-", "seat=1", "turn=1")},
	})
}

// Card 15 (blue, 1 point, costs 4 red) gives the third blue bonus that
// nobles 5 and 6 both need. The payment is part of the purchase, the noble
// visit comes after the action: the seat pays, then chooses its noble, with
// the refilled market in view.
func TestPaymentComesBeforeTheNobleChoice(t *testing.T) {
	bonuses := "1.2.3.8.9.16.17.18.32.33.34"
	before := choosing("nobles=5.6.0.-.-", "market=15.24.36.22/40.41.42.43/70.71.72.73", "bank=444041",
		"p0=000401|"+bonuses+"|-|-")
	rulestest.RunRuleCases(t, &engine, []ruleCase{
		{"pay first", before, []string{"buy L1 slot1"},
			choosing("nobles=5.6.0.-.-", "phase=pay", "buying=15:00040", "market=-.24.36.22/40.41.42.43/70.71.72.73",
				"bank=444041", "p0=000401|"+bonuses+"|-|-")},
		{"then the noble, the new card in view", before, []string{"buy L1 slot1", "pay done"},
			choosing("nobles=5.6.0.-.-", "phase=noble", bought1, drawn, "bank=444441",
				"p0=000001|1.2.3.8.9.15.16.17.18.32.33.34|-|-")},
		{"gold for a red, then the noble", before, []string{"buy L1 slot1", "pay gold for red", "noble2"},
			choosing("nobles=5.-.0.-.-", bought1, drawn, "bank=444342",
				"p0=000100|1.2.3.8.9.15.16.17.18.32.33.34|-|6", "seat=1", "turn=1")},
	})
}

// The rulebook replaces a card taken from the market "immediately": after a
// reserve the new card is on the table while the seat returns tokens.
func TestMarketRefillsBeforeTheReturns(t *testing.T) {
	for _, text := range []string{pos("p0=222220|-|-|-", "bank=222225"), choosing("p0=222220|-|-|-", "bank=222225")} {
		s := engine.MustParse(t, text)
		engine.Play(t, &s, "reserve L1 slot2")
		assert.Equal(t, splendor.PhaseReturn, s.Phase)
		assert.Equal(t, splendor.Card(6), s.Market[0][1], "the deck's top is already in the slot")
		engine.Play(t, &s, "return white")
		assert.Equal(t, uint8(1), s.Seat)
	}
}
