package duel_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// Card ids used below (cost is white blue green red black pearl):
//
//	1 L1 white again 0.2.2.0.0.1    2 L1 white token 0.0.0.2.2.0
//	30 L2 white steal 1pt 0.4.0.3.0.0   32 L2 white privilege 2pt 4.0.0.0.2.1
//	3/13/18/23 L1 white/green/red/black, 1 crown each; 23 costs 3 white
//	25 L1 joker 1 crown   33 L2 white 2pt 1 crown
//
// Royals (rows of duel_royals.csv): 0 2pt again, 1 2pt privilege, 2 2pt steal, 3 3pt.

func TestAgain(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"the same seat plays another turn", pos(l1("1"), "p0=0220010|0|-|-|-"), []string{"buy L1 slot1"},
			pos(with(refilled, "turn=1", "bag=0220010", "p0=0000000|0|1|-|-")...)},
		{"and then the opponent", pos(l1("1"), "p0=0220010|0|-|-|-"), []string{"buy L1 slot1", "take a1"},
			pos(with(refilled, "seat=1", "turn=2", "bag=0220010", "board=.bgrk/bgrkw/growb/rkwpg/okbpo",
				"p0=1000000|0|1|-|-")...)},
	})
}

func TestTokenAbility(t *testing.T) {
	oneWhite := "board=wbgrk/bgrkb/grokb/rkbpg/okbpo"
	runRuleCases(t, []ruleCase{
		{"several cells of the card's colour: the seat chooses", pos(l1("2"), "p0=0002200|0|-|-|-"),
			[]string{"buy L1 slot1"},
			pos(with(taken, "phase=token", "pending=2", "bag=0002200", "p0=0000000|0|2|-|-")...)},
		{"the chosen cell", pos(l1("2"), "p0=0002200|0|-|-|-"), []string{"buy L1 slot1", "token d3"},
			handed(with(refilled, "board=wbgrk/bgrkw/gro.b/rkwpg/okbpo", "bag=0002200",
				"p0=1000000|0|2|-|-")...)},
		{"a single cell: taken without a decision", pos(l1("2"), oneWhite, "p0=0002200|0|-|-|-"),
			[]string{"buy L1 slot1"},
			handed(with(refilled, "board=.bgrk/bgrkb/grokb/rkbpg/okbpo", "bag=0002200",
				"p0=1000000|0|2|-|-")...)},
		{"no token of the colour: no effect", pos(l1("2"), "board=bbgrk/bgrkb/grokb/rkbpg/okbpo", "p0=0002200|0|-|-|-"),
			[]string{"buy L1 slot1"},
			handed(with(refilled, "board=bbgrk/bgrkb/grokb/rkbpg/okbpo", "bag=0002200",
				"p0=0000000|0|2|-|-")...)},
	})
	s := engine.MustParse(t, pos(l1("2"), "p0=0002200|0|-|-|-"))
	engine.Play(t, &s, "buy L1 slot1")
	assert.Equal(t, []string{"token a1", "token e2", "token d3", "token c4"}, engine.LegalLabels(&s))
	engine.AssertRefused(t, s, "token b1")
	engine.AssertRefused(t, s, "take a1")
}

func TestPrivilegeAbility(t *testing.T) {
	l2 := "pyramid=0.5.10.15.20/32.34.38.42/60.61.62"
	after := []string{"pyramid=0.5.10.15.20/35.34.38.42/60.61.62", "decks=6.7.8/-/63", "bag=4000201"}
	runRuleCases(t, []ruleCase{
		{"from the supply", pos(l2, "p0=4000201|0|-|-|-"), []string{"buy L2 slot1"},
			handed(with(after, "p0=0000000|1|32|-|-")...)},
		{"from the opponent when the supply is empty", pos(l2, "p0=4000201|0|-|-|-", "p1=0000000|3|-|-|-"),
			[]string{"buy L2 slot1"},
			handed(with(after, "p0=0000000|1|32|-|-", "p1=0000000|2|-|-|-")...)},
		{"holding all three: nothing", pos(l2, "p0=4000201|3|-|-|-", "p1=0000000|0|-|-|-"),
			[]string{"buy L2 slot1"},
			handed(with(after, "p0=0000000|3|32|-|-", "p1=0000000|0|-|-|-")...)},
	})
}

func TestStealAbility(t *testing.T) {
	after := []string{"pyramid=0.5.10.15.20/35.34.38.42/60.61.62", "decks=6.7.8/-/63", "bag=0403000"}
	stealing := []string{"pyramid=0.5.10.15.20/-.34.38.42/60.61.62", "bag=0403000"}
	runRuleCases(t, []ruleCase{
		{"several kinds: the seat chooses", pos("p0=0403000|0|-|-|-", "p1=1000021|1|-|-|-"),
			[]string{"buy L2 slot1"},
			pos(with(stealing, "phase=steal", "p0=0000000|0|30|-|-", "p1=1000021|1|-|-|-")...)},
		{"a pearl", pos("p0=0403000|0|-|-|-", "p1=1000021|1|-|-|-"), []string{"buy L2 slot1", "steal pearl"},
			handed(with(after, "p0=0000010|0|30|-|-", "p1=1000011|1|-|-|-")...)},
		{"one kind: taken without a decision", pos("p0=0403000|0|-|-|-", "p1=0001001|1|-|-|-"),
			[]string{"buy L2 slot1"},
			handed(with(after, "p0=0001000|0|30|-|-", "p1=0000001|1|-|-|-")...)},
		{"only gold: nothing, gold is never stolen", pos("p0=0403000|0|-|-|-", "p1=0000003|1|-|-|-"),
			[]string{"buy L2 slot1"},
			handed(with(after, "p0=0000000|0|30|-|-", "p1=0000003|1|-|-|-")...)},
		{"no tokens: nothing", pos("p0=0403000|0|-|-|-"), []string{"buy L2 slot1"},
			handed(with(after, "p0=0000000|0|30|-|-")...)},
	})
	s := engine.MustParse(t, pos("p0=0403000|0|-|-|-", "p1=1000021|1|-|-|-"))
	engine.Play(t, &s, "buy L2 slot1")
	assert.Equal(t, []string{"steal white", "steal pearl"}, engine.LegalLabels(&s))
	engine.AssertRefused(t, s, "steal blue")
}

// thirdCrown: seat 0 holds two crowns and buys card 23 (a third; its 3 white
// cost less the white bonus of card 3).
var thirdCrown = []string{l1("23"), "p0=2000000|0|3.13|-|-"}

func TestRoyalCards(t *testing.T) {
	bought := with(refilled, "bag=2000000")
	runRuleCases(t, []ruleCase{
		{"the third crown: the seat chooses a royal", pos(thirdCrown...), []string{"buy L1 slot1"},
			pos(with(taken, "bag=2000000", "phase=royal", "p0=0000000|0|3.13.23|-|-")...)},
		{"a royal's points", pos(thirdCrown...), []string{"buy L1 slot1", "royal 3pt"},
			handed(with(bought, "p0=0000000|0|3.13.23|-|3")...)},
		{"a royal's privilege", pos(thirdCrown...), []string{"buy L1 slot1", "royal 2pt privilege"},
			handed(with(bought, "p0=0000000|1|3.13.23|-|1")...)},
		{"a royal's extra turn", pos(thirdCrown...), []string{"buy L1 slot1", "royal 2pt again"},
			pos(with(bought, "turn=1", "p0=0000000|0|3.13.23|-|0")...)},
		{"a royal's steal", pos(with(thirdCrown, "p1=1100000|1|-|-|-")...),
			[]string{"buy L1 slot1", "royal 2pt steal", "steal blue"},
			handed(with(bought, "p0=0100000|0|3.13.23|-|2", "p1=1000000|1|-|-|-")...)},
		{"the fourth crown: nothing", pos(l1("23"), "p0=2000000|0|3.13.18|-|3"), []string{"buy L1 slot1"},
			handed(with(bought, "p0=0000000|0|3.13.18.23|-|3")...)},
		{"the sixth crown: a second royal", pos(l1("23"), "p0=0000000|0|3.13.18.25w.33|-|3"),
			[]string{"buy L1 slot1", "royal 2pt privilege"},
			handed(with(refilled, "p0=0000000|1|3.13.18.23.25w.33|-|1.3")...)},
		{"a single royal left: taken without a decision", pos(with(thirdCrown, "p1=0000000|1|-|-|0.1.3")...),
			[]string{"buy L1 slot1"},
			handed(with(bought, "p0=0000000|0|3.13.23|-|2", "p1=0000000|1|-|-|0.1.3")...)},
	})
	s := engine.MustParse(t, pos(thirdCrown...))
	engine.Play(t, &s, "buy L1 slot1")
	assert.Equal(t, []string{"royal 2pt again", "royal 2pt privilege", "royal 2pt steal", "royal 3pt"}, engine.LegalLabels(&s))
	taken := engine.MustParse(t, pos(with(thirdCrown, "p1=0000000|1|-|-|1")...))
	engine.Play(t, &taken, "buy L1 slot1")
	engine.AssertRefused(t, taken, "royal 2pt privilege")
	assert.Equal(t, uint8(3), s.Players[0].Crowns)
}
