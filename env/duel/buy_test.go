package duel_test

import (
	"testing"

	"github.com/splendor-rl/splendor/env/duel"
	"github.com/stretchr/testify/assert"
)

// Card ids used below (rows of duel_cards.csv; cost is white blue green red
// black pearl):
//
//	0 L1 white 0.1.1.1.1.0        4 L1 white 1pt 0.0.2.3.0.0     9 L1 blue 1pt 0.0.0.2.3.0
//	11/16/21 L1 green/red/black "again", cost irrelevant (already bought)
//	23 L1 black 1 crown 3.0.0.0.0.0
//	25 L1 joker 1 crown 4.0.0.0.0.1   26 L1 joker 1pt 2.0.2.0.1.1   29 L1 no bonus 3pt 0.0.0.4.0.1
//	31 L2 white double bonus 1pt 0.5.2.0.0.0    33 L2 white 2pt 1 crown 0.0.2.2.2.1

// l1 puts card c in L1 slot1 of the base pyramid.
func l1(c string) string { return "pyramid=" + c + ".5.10.15.20/30.34.38.42/60.61.62" }

// refilled is the base layout after L1 slot1 was bought and, as the turn
// passed, refilled with 8.
var refilled = []string{"pyramid=8.5.10.15.20/30.34.38.42/60.61.62", "decks=6.7/35/63"}

// taken is the base layout while the turn that bought L1 slot1 goes on: the
// slot waits, empty, for the end of the turn.
var taken = []string{"pyramid=-.5.10.15.20/30.34.38.42/60.61.62"}

func TestBuying(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"with tokens, which go into the bag; the slot is refilled", pos("p0=0111100|0|-|-|-"),
			[]string{"buy L1 slot1"},
			handed(with(refilled, "bag=0111100", "p0=0000000|0|0|-|-")...)},
		{"gold pays for a missing gem and a missing pearl", pos(l1("29"), "p0=0003003|0|-|-|-"),
			[]string{"buy L1 slot1"},
			handed(with(refilled, "bag=0003002", "p0=0000001|0|29|-|-")...)},
		{"gem tokens are spent before gold", pos("p0=0111101|0|-|-|-"), []string{"buy L1 slot1"},
			handed(with(refilled, "bag=0111100", "p0=0000001|0|0|-|-")...)},
		{"bonuses lower gem costs, never the pearl",
			pos("pyramid=0.5.10.15.20/33.34.38.42/60.61.62", "p0=0011110|0|11.16.21|-|-"),
			[]string{"buy L2 slot1"},
			handed("pyramid=0.5.10.15.20/35.34.38.42/60.61.62", "decks=6.7.8/-/63", "bag=0011110",
				"p0=0000000|0|11.16.21.33|-|-")},
		{"bonuses above the cost: free, no change", pos("p0=0000000|0|9.11.16.17.21.22|-|-"),
			[]string{"buy L1 slot1"},
			handed(with(refilled, "p0=0000000|0|0.9.11.16.17.21.22|-|-")...)},
		{"an empty deck leaves the slot empty", pos("decks=-/35/63", "p0=0111100|0|-|-|-"),
			[]string{"buy L1 slot1"},
			handed("pyramid=-.5.10.15.20/30.34.38.42/60.61.62", "decks=-/35/63", "bag=0111100",
				"p0=0000000|0|0|-|-")},
		{"a reserved card; the others keep their order and hidden marks",
			pos("p0=0023000|0|-|*23.4.*13|-"), []string{"buy reserved2"},
			handed("bag=0023000", "p0=0000000|0|4|*23.*13|-")},
	})
}

func TestBuyingRefusals(t *testing.T) {
	runLegalCases(t, []legalCase{
		{"short of a gem", pos("p0=0111000|0|-|-|-"), nil, []string{"buy L1 slot1"}},
		{"short even with gold", pos(l1("29"), "p0=0002002|0|-|-|-"), nil, []string{"buy L1 slot1"}},
		{"an empty slot", pos("pyramid=-.5.10.15.20/30.34.38.42/60.61.62", "decks=-/35/63", "p0=1111100|0|-|-|-"),
			[]string{"buy L1 slot2"}, []string{"buy L1 slot1"}},
		{"no such reserved card", pos("p0=0023000|0|-|4|-"), []string{"buy reserved1"}, []string{"buy reserved2"}},
		{"the opponent's reserved card", pos("p0=0023000|0|-|-|-", "p1=0000000|1|-|4|-"), nil,
			[]string{"buy reserved1"}},
		{"a joker with no bonus to copy", pos(l1("25"), "p0=4000010|0|-|-|-"), nil, []string{"buy L1 slot1"}},
		{"a joker when the only card bought has no bonus", pos(l1("25"), "p0=4000010|0|29|-|-"), nil,
			[]string{"buy L1 slot1"}},
	})
}

func TestDoubleBonus(t *testing.T) {
	s := engine.MustParse(t, pos("pyramid=0.5.10.15.20/31.34.38.42/60.61.62", "p0=0420000|0|9|-|-"))
	engine.Play(t, &s, "buy L2 slot1")
	p := &s.Players[0]
	assert.Equal(t, [duel.NumColours]uint8{2, 1, 0, 0, 0}, p.Bonus, "card 31 gives two white bonuses")
	assert.Equal(t, [duel.NumColours]uint8{1, 1, 0, 0, 0}, p.ColourPoints, "its point counts once")
	assert.Equal(t, uint8(2), p.Points)
}

func TestJoker(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"one bonus colour: the joker takes it without a decision", pos(l1("25"), "p0=4000010|0|9|-|-"),
			[]string{"buy L1 slot1"},
			handed(with(refilled, "bag=4000010", "p0=0000000|0|9.25b|-|-")...)},
		{"several colours: the seat chooses (the white bonus lowers the cost)", pos(l1("25"), "p0=4000010|0|4.9|-|-"),
			[]string{"buy L1 slot1"},
			pos(with(taken, "phase=joker", "pending=25", "bag=3000010", "p0=1000000|0|4.9.25|-|-")...)},
		{"the chosen colour", pos(l1("25"), "p0=4000010|0|4.9|-|-"),
			[]string{"buy L1 slot1", "joker white"},
			handed(with(refilled, "bag=3000010", "p0=1000000|0|4.9.25w|-|-")...)},
	})
	s := engine.MustParse(t, pos(l1("26"), "p0=2020011|0|4.9|-|-"))
	engine.Play(t, &s, "buy L1 slot1")
	assert.Equal(t, []string{"joker white", "joker blue"}, engine.LegalLabels(&s), "only colours the seat has a bonus in")
	engine.AssertRefused(t, s, "joker red")
	engine.Play(t, &s, "joker blue")
	p := &s.Players[0]
	assert.Equal(t, [duel.NumColours]uint8{1, 2, 0, 0, 0}, p.Bonus)
	assert.Equal(t, [duel.NumColours]uint8{1, 2, 0, 0, 0}, p.ColourPoints, "the joker's point counts for its colour")
	assert.Equal(t, duel.Blue, s.JokerColour[duel.Card(26).JokerOrdinal()])
}
