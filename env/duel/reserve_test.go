package duel_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// The base pyramid is 0.5.10.15.20 / 30.34.38.42 / 60.61.62 with decks
// 6.7.8 / 35 / 63 (the last id is the top).

func TestReservingWithGold(t *testing.T) {
	noCentreGold := "board=wbgrk/bgrkw/gr.wb/rkwpg/okbpo"
	runRuleCases(t, []ruleCase{
		{"gold first: the seat then chooses the card", pos(), []string{"gold c3"},
			pos(noCentreGold, "phase=reserve", "p0=0000001|0|-|-|-")},
		{"a pyramid card; its slot is refilled from the deck", pos(), []string{"gold c3", "reserve L1 slot2"},
			handed(noCentreGold, "pyramid=0.8.10.15.20/30.34.38.42/60.61.62", "decks=6.7/35/63",
				"p0=0000001|0|-|5|-")},
		{"the top of a deck, hidden from the opponent", pos(), []string{"gold a5", "reserve L3 deck"},
			handed("board=wbgrk/bgrkw/growb/rkwpg/.kbpo", "decks=6.7.8/35/-", "p0=0000001|0|-|*63|-")},
		{"an empty deck leaves the slot empty", pos("decks=-/35/63"), []string{"gold c3", "reserve L1 slot1"},
			handed(noCentreGold, "pyramid=-.5.10.15.20/30.34.38.42/60.61.62", "decks=-/35/63",
				"p0=0000001|0|-|0|-")},
		{"a third reserve", pos("p0=0000002|0|-|1.*2|-"), []string{"gold c3", "reserve L2 slot4"},
			handed(noCentreGold, "pyramid=0.5.10.15.20/30.34.38.35/60.61.62", "decks=6.7.8/-/63",
				"p0=0000003|0|-|1.*2.42|-")},
		{"a single card left to reserve is reserved without a decision",
			pos("pyramid=-.-.-.-.-/-.-.-.-/-.61.-", "decks=-/-/-"), []string{"gold c3"},
			handed(noCentreGold, "pyramid=-.-.-.-.-/-.-.-.-/-.-.-", "decks=-/-/-", "p0=0000001|0|-|61|-")},
	})
}

func TestReserveLegality(t *testing.T) {
	runLegalCases(t, []legalCase{
		{"gold only where gold lies", pos(), []string{"gold c3", "gold a5", "gold e5"}, []string{"gold a1", "gold b3"}},
		{"no gold on the board", pos("board=wbgrk/bgrkw/grrwb/rkwpg/wkbpb"), []string{"take c3"},
			[]string{"gold c3", "gold a5"}},
		{"three cards reserved already", pos("p0=0000000|0|-|1.*2.3|-"), []string{"take a1"},
			[]string{"gold c3", "gold a5"}},
		// Decision: taking gold is one action with the reserve; with no card
		// to reserve it is not possible.
		{"no card left to reserve", pos("pyramid=-.-.-.-.-/-.-.-.-/-.-.-", "decks=-/-/-"), []string{"take a1"},
			[]string{"gold c3"}},
	})
	s := engine.MustParse(t, pos("decks=6.7.8/-/63"))
	engine.Play(t, &s, "gold c3")
	legal := engine.LegalLabels(&s)
	assert.Len(t, legal, 12+2, "the 12 pyramid cards and the two decks that are not empty")
	for _, l := range []string{"reserve L2 deck", "take a1", "gold a5", "buy L1 slot1", "privilege a1", "pass"} {
		engine.AssertRefused(t, s, l)
	}
}
