package splendor_test

import (
	"testing"

	"github.com/splendor-rl/splendor/internal/rulestest"
)

// Card ids used below (rows of splendor_cards.csv; cost is white blue green red black):
//
//	0 L1 white 0pt 3.1.0.0.1   1 L1 white 0pt 0.3.0.0.0   7 L1 white 1pt 0.0.4.0.0
//	11 L1 blue 0pt 1.0.0.0.2   24 L1 red 0pt 3.0.0.0.0    46 L2 blue 1pt 0.2.3.0.3
//	44 L2 white 2pt 0.0.0.5.0  45/51/57/63 L2 3pt, one colour each
//
// Nobles: 0 needs 4 white 4 blue, 5 needs 3 white 3 blue 3 green, 6 needs 3 white 3 blue 3 black.

func TestTakingGems(t *testing.T) {
	rulestest.RunRuleCases(t, &engine, []ruleCase{
		{"three different colours", pos(), []string{"take white blue green"},
			pos("bank=333445", "p0=111000|-|-|-", "seat=1", "turn=1")},
		{"two of a colour from a pile of exactly 4", pos(), []string{"take 2 red"},
			pos("bank=444245", "p0=000200|-|-|-", "seat=1", "turn=1")},
		{"two different when only two colours remain", pos("bank=030100"), []string{"take blue red"},
			pos("bank=020000", "p0=010100|-|-|-", "seat=1", "turn=1")},
		{"one when only one colour remains", pos("bank=000300"), []string{"take red"},
			pos("bank=000200", "p0=000100|-|-|-", "seat=1", "turn=1")},
	})
}

func TestTakeLegality(t *testing.T) {
	rulestest.RunLegalCases(t, &engine, []legalCase{
		{"three colours: triples only", pos("bank=110105"),
			[]string{"take white blue red"},
			[]string{"take white blue", "take white", "take 2 white"}},
		{"pile of 3 cannot give two", pos("bank=330000"),
			[]string{"take white blue"},
			[]string{"take 2 white", "take white", "take blue"}},
		{"pile of 4 gives two", pos("bank=400000"),
			[]string{"take white", "take 2 white"},
			[]string{"take blue"}},
		{"no colour tokens: nothing to take", pos("bank=000005"),
			nil,
			[]string{"take white", "take 2 white", "take white blue green"}},
	})
}

func TestReserving(t *testing.T) {
	rulestest.RunRuleCases(t, &engine, []ruleCase{
		{"face-up card, gold, slot refilled from the deck top", pos(), []string{"reserve L1 slot2"},
			pos("bank=444444", "market=0.6.36.22/40.41.42.43/70.71.72.73", "decks=5/46/74",
				"p0=000001|-|24|-", "seat=1", "turn=1")},
		{"deck top, hidden from the others", pos(), []string{"reserve L3 deck"},
			pos("bank=444444", "decks=5.6/46/-", "p0=000001|-|*74|-", "seat=1", "turn=1")},
		{"no gold left: the card still, no gold", pos("bank=444440"), []string{"reserve L2 slot1"},
			pos("bank=444440", "market=0.24.36.22/46.41.42.43/70.71.72.73", "decks=5.6/-/74",
				"p0=000000|-|40|-", "seat=1", "turn=1")},
		{"face-up from a level whose deck is empty leaves the slot empty", pos("decks=5.6/-/74"),
			[]string{"reserve L2 slot4"},
			pos("bank=444444", "market=0.24.36.22/40.41.42.-/70.71.72.73", "decks=5.6/-/74",
				"p0=000001|-|43|-", "seat=1", "turn=1")},
	})
}

func TestReserveLimits(t *testing.T) {
	full := engine.MustParse(t, pos("p0=000003|-|1.*45.75|-"))
	for _, l := range []string{"reserve L1 slot1", "reserve L1 deck", "reserve L3 slot4"} {
		engine.AssertRefused(t, full, l)
	}
	empty := engine.MustParse(t, pos("decks=5.6/-/74"))
	engine.AssertRefused(t, empty, "reserve L2 deck")
}

func TestBuying(t *testing.T) {
	// Card 1 (3 blue) sits in L1 slot1 for every case.
	market := "market=1.24.36.22/40.41.42.43/70.71.72.73"
	bought := "market=6.24.36.22/40.41.42.43/70.71.72.73"
	rulestest.RunRuleCases(t, &engine, []ruleCase{
		{"with tokens; slot refilled", pos(market, "bank=414445", "p0=030000|-|-|-"), []string{"buy L1 slot1"},
			pos(bought, "decks=5/46/74", "bank=444445", "p0=000000|1|-|-", "seat=1", "turn=1")},
		{"gold pays what colour tokens do not", pos(market, "bank=434443", "p0=010002|-|-|-"),
			[]string{"buy L1 slot1"},
			pos(bought, "decks=5/46/74", "bank=444445", "p0=000000|1|-|-", "seat=1", "turn=1")},
		{"colour tokens are spent before gold", pos(market, "bank=414443", "p0=030002|-|-|-"),
			[]string{"buy L1 slot1"},
			pos(bought, "decks=5/46/74", "bank=444443", "p0=000002|1|-|-", "seat=1", "turn=1")},
		{"bonuses first, then tokens", pos(market, "bank=434445", "p0=010000|11.14|-|-"),
			[]string{"buy L1 slot1"},
			pos(bought, "decks=5/46/74", "bank=444445", "p0=000000|1.11.14|-|-", "seat=1", "turn=1")},
		{"bonuses above the cost: free, no change", pos(market, "p0=020000|11.12.13.14|-|-"),
			[]string{"buy L1 slot1"},
			pos(bought, "decks=5/46/74", "p0=020000|1.11.12.13.14|-|-", "seat=1", "turn=1")},
		{"empty deck leaves the slot empty", pos(market, "decks=-/46/74", "p0=030000|-|-|-", "bank=414445"),
			[]string{"buy L1 slot1"},
			pos("market=-.24.36.22/40.41.42.43/70.71.72.73", "decks=-/46/74", "p0=000000|1|-|-",
				"seat=1", "turn=1")},
		{"own reserved card; later reserves keep their order and hidden marks",
			pos("bank=414445", "p0=030000|-|*75.1.*45|-"), []string{"buy reserved2"},
			pos("p0=000000|1|*75.*45|-", "seat=1", "turn=1")},
		{"reserved hidden card bought: the mark leaves with it",
			pos("bank=422145", "p0=022300|-|1.*47.75|-"), []string{"buy reserved2"},
			pos("p0=000000|47|1.75|-", "seat=1", "turn=1")},
	})
}

func TestBuyingRefusals(t *testing.T) {
	market := "market=1.24.36.22/40.41.42.43/70.71.72.73"
	short := engine.MustParse(t, pos(market, "p0=020000|-|-|-"))
	engine.AssertRefused(t, short, "buy L1 slot1")
	shortWithGold := engine.MustParse(t, pos(market, "p0=010001|-|-|-"))
	engine.AssertRefused(t, shortWithGold, "buy L1 slot1")
	emptySlot := engine.MustParse(t, pos("market=-.24.36.22/40.41.42.43/70.71.72.73"))
	engine.AssertRefused(t, emptySlot, "buy L1 slot1")
	noSuchReserve := engine.MustParse(t, pos("p0=030000|-|1|-"))
	engine.AssertRefused(t, noSuchReserve, "buy reserved2")
	// Another seat's reserved card is not in the market: only its owner may buy it.
	othersReserve := engine.MustParse(t, pos("p0=030000|-|-|-", "p1=000000|-|1|-"))
	engine.AssertRefused(t, othersReserve, "buy reserved1")
}
