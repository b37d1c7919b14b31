package duel_test

import (
	"testing"

	"github.com/splendor-rl/splendor/env/duel"
	"github.com/stretchr/testify/assert"
)

func TestReturningTokens(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"over 10: the seat returns tokens before the turn ends", pos("p0=3322000|0|-|-|-"), []string{"take a1"},
			pos("board=.bgrk/bgrkw/growb/rkwpg/okbpo", "phase=return", "p0=4322000|0|-|-|-")},
		{"one per decision, into the bag, until exactly 10", pos("p0=3321001|0|-|-|-"),
			[]string{"take c2 d2 e2", "return white", "return white", "return gold"},
			handed("board=wbgrk/bg.../growb/rkwpg/okbpo", "bag=2000001", "p0=2322100|0|-|-|-")},
		{"tokens from privileges count only at the end of the turn", pos("p0=3322000|1|-|-|-"),
			[]string{"privilege a1", "take b1", "return red", "return red"},
			handed("board=..grk/bgrkw/growb/rkwpg/okbpo", "bag=0002000", "p0=4420000|0|-|-|-")},
	})
	s := engine.MustParse(t, pos("p0=3322000|0|-|-|-"))
	engine.Play(t, &s, "take a1")
	assert.Equal(t, []string{"return white", "return blue", "return green", "return red"}, engine.LegalLabels(&s),
		"only kinds held, and nothing else")
}

// nineteen is 19 prestige on cards: 66, 53 and 29 (no bonus; 6, 5, 3), 57
// (blue, 4) and 19 (red, 1).
const nineteen = "66.53.29.57.19"

func TestVictory(t *testing.T) {
	cases := []struct {
		name    string
		before  []string
		actions []string
		want    duel.Victory
	}{
		{"20 prestige", []string{l1("4"), "p0=0022000|0|" + nineteen + "|-|-"}, []string{"buy L1 slot1"},
			duel.VictoryPoints},
		{"10 crowns", []string{l1("3"), "p0=0200000|0|64w.54.56.58|-|1.3"}, []string{"buy L1 slot1"},
			duel.VictoryCrowns},
		{"10 prestige on cards of one colour", []string{l1("4"), "p0=0023000|0|55.54.32|-|-"},
			[]string{"buy L1 slot1"}, duel.VictoryColour},
		{"a joker counts for its chosen colour", []string{l1("26"), "p0=0020011|0|55.54.32.9|-|-"},
			[]string{"buy L1 slot1", "joker white"}, duel.VictoryColour},
		{"again, then victory in the extra turn", []string{"pyramid=1.4.10.15.20/30.34.38.42/60.61.62",
			"p0=0242010|0|" + nineteen + "|-|-"}, []string{"buy L1 slot1", "buy L1 slot2"}, duel.VictoryPoints},
		{"again on the winning turn: the game ends at once", []string{
			"pyramid=0.5.10.15.20/30.34.38.42/65.61.62", "p0=0004003|0|" + nineteen + "|-|-"},
			[]string{"buy L3 slot1", "joker red"}, duel.VictoryPoints},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := engine.MustParse(t, pos(tc.before...))
			engine.Play(t, &s, tc.actions...)
			assert.True(t, s.Over())
			assert.False(t, s.Blocked())
			assert.Equal(t, uint8(1<<0), s.Winners())
			assert.Equal(t, uint8(0), s.Seat)
			assert.Equal(t, tc.want, s.Players[0].Victory())
			assert.False(t, s.Again, "no extra turn after the game ended")
			assert.Empty(t, engine.LegalLabels(&s), "no action once the game is over")
			for _, l := range []string{"take a1", "pass", "return white"} {
				engine.AssertRefused(t, s, l)
			}
		})
	}
}

func TestNoVictory(t *testing.T) {
	cases := []struct{ name, before, action string }{
		{"19 prestige", pos(l1("0"), "p0=0111100|0|"+nineteen+"|-|-"), "buy L1 slot1"},
		{"prestige on cards without bonus counts for no colour", pos(l1("4"), "p0=0023000|0|66.53.55|-|-"),
			"buy L1 slot1"},
		{"the joker given another colour", pos(l1("26"), "p0=0020011|0|55.54.32.9|-|-"), "buy L1 slot1"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := engine.MustParse(t, tc.before)
			engine.Play(t, &s, tc.action)
			if s.Phase == duel.PhaseJoker {
				engine.Play(t, &s, "joker blue")
			}
			assert.False(t, s.Over())
			assert.Equal(t, uint8(1), s.Seat)
			assert.Zero(t, s.Winners())
		})
	}
}

func TestVictoryIsCheckedAfterTheReturns(t *testing.T) {
	s := engine.MustParse(t, pos("phase=return", "p0=4322000|0|4."+nineteen+"|-|-"))
	assert.False(t, s.Over(), "20 prestige, but the turn has not ended")
	engine.Play(t, &s, "return white")
	assert.True(t, s.Over())
	assert.Equal(t, uint8(1<<0), s.Winners())
}
