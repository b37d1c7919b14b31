package splendor_test

import (
	"testing"

	"github.com/splendor-rl/splendor/env/splendor"
	"github.com/splendor-rl/splendor/internal/rulestest"
	"github.com/stretchr/testify/assert"
)

func TestReturningTokens(t *testing.T) {
	rulestest.RunRuleCases(t, &engine, []ruleCase{
		{"over 10: one token per decision until exactly 10", pos("bank=111045", "p0=333000|-|-|-"),
			[]string{"take white blue green"},
			pos("bank=000045", "p0=444000|-|-|-", "phase=return")},
		{"a just-taken colour may go back", pos("bank=111045", "p0=333000|-|-|-"),
			[]string{"take white blue green", "return white", "return white"},
			pos("bank=200045", "p0=244000|-|-|-", "seat=1", "turn=1")},
		{"gold may go back", pos("bank=111043", "p0=222202|-|-|-"),
			[]string{"take white blue green", "return gold", "return gold", "return red"},
			pos("bank=000145", "p0=333100|-|-|-", "seat=1", "turn=1")},
		{"reserving to 11 tokens makes the seat return one", pos("p0=222220|-|-|-", "bank=222225"),
			[]string{"reserve L1 deck", "return gold"},
			pos("p0=222220|-|*6|-", "bank=222225", "decks=5/46/74", "seat=1", "turn=1")},
	})
	s := engine.MustParse(t, pos("bank=111043", "p0=222202|-|-|-"))
	engine.Play(t, &s, "take white blue green")
	assert.Equal(t, []string{"return white", "return blue", "return green", "return red", "return gold"},
		engine.LegalLabels(&s), "only held colours can be returned, and nothing else can be done")
}

// Nobles 5 (3 white 3 blue 3 green) and 6 (3 white 3 blue 3 black) both
// need the third blue bonus that card 11 (blue, costs 1 white 2 black) gives.
var twoNobles = pos("nobles=5.6.0.-.-", "market=11.24.36.22/40.41.42.43/70.71.72.73",
	"p0=000000|1.2.3.8.9.16.17.18.32.33.34|-|-")

func TestNobles(t *testing.T) {
	rulestest.RunRuleCases(t, &engine, []ruleCase{
		{"several qualify: the seat chooses one", twoNobles, []string{"buy L1 slot1"},
			pos("nobles=5.6.0.-.-", "market=6.24.36.22/40.41.42.43/70.71.72.73", "decks=5/46/74",
				"p0=000000|1.2.3.8.9.11.16.17.18.32.33.34|-|-", "phase=noble")},
		{"only one per turn; the other stays for a later turn", twoNobles,
			[]string{"buy L1 slot1", "noble2", "take white blue green"},
			pos("nobles=5.-.0.-.-", "market=6.24.36.22/40.41.42.43/70.71.72.73", "decks=5/46/74",
				"p0=000000|1.2.3.8.9.11.16.17.18.32.33.34|-|6", "p1=111000|-|-|-", "bank=333445",
				"seat=0", "turn=2")},
		{"a single qualifying noble visits without a decision", pos("nobles=5.-.0.-.-",
			"market=11.24.36.22/40.41.42.43/70.71.72.73", "p0=000000|1.2.3.8.9.16.17.18.32.33.34|-|6"),
			[]string{"buy L1 slot1"},
			pos("nobles=-.-.0.-.-", "market=6.24.36.22/40.41.42.43/70.71.72.73", "decks=5/46/74",
				"p0=000000|1.2.3.8.9.11.16.17.18.32.33.34|-|5.6", "seat=1", "turn=1")},
		{"the noble check waits for the returns", pos("nobles=5.-.-.-.-", "bank=111045",
			"p0=333000|1.2.3.8.9.10.16.17.18|-|-"),
			[]string{"take white blue green", "return white"},
			pos("nobles=5.-.-.-.-", "bank=100045", "p0=344000|1.2.3.8.9.10.16.17.18|-|-", "phase=return")},
		{"then the noble visits and the turn ends", pos("nobles=5.-.-.-.-", "bank=111045",
			"p0=333000|1.2.3.8.9.10.16.17.18|-|-"),
			[]string{"take white blue green", "return white", "return white"},
			pos("nobles=-.-.-.-.-", "bank=200045", "p0=244000|1.2.3.8.9.10.16.17.18|-|5", "seat=1", "turn=1")},
	})
}

func TestNoblesNeedBonusesNotTokens(t *testing.T) {
	s := engine.MustParse(t, pos("nobles=0.-.-.-.-", "bank=000045", "p0=440000|-|-|-"))
	engine.Play(t, &s, "reserve L1 slot2")
	assert.Equal(t, 0, s.Players[0].Nobles.Len())
	assert.Equal(t, uint8(1), s.Seat)
}

func TestChooseNobleRefusals(t *testing.T) {
	s := engine.MustParse(t, twoNobles)
	engine.Play(t, &s, "buy L1 slot1")
	assert.Equal(t, []string{"noble1", "noble2"}, engine.LegalLabels(&s))
	engine.AssertRefused(t, s, "noble3") // noble 0 is on the table but not earned
	engine.AssertRefused(t, s, "take white blue green")
}

func TestFinalRound(t *testing.T) {
	// Seat 1 reaches exactly 15 by buying card 7 (1 point, 4 green).
	leader := "p1=004000|44.45.51.57.63|-|-"
	market := "market=7.24.36.22/40.41.42.43/70.71.72.73"
	cases := []struct {
		name    string
		players string
		moves   int // turns after the trigger before the game ends
	}{
		{"2 players, second seat triggers: game ends at once", "players=2", 0},
		{"3 players, middle seat triggers: the last seat still plays", "players=3", 1},
		{"4 players, second seat triggers: two seats still play", "players=4", 2},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := engine.MustParse(t, pos(tc.players, leader, market, "seat=1", "turn=1"))
			engine.Play(t, &s, "buy L1 slot1")
			assert.True(t, s.FinalRound)
			for i := 0; i < tc.moves; i++ {
				assert.False(t, s.Over(), "the round is not complete yet")
				engine.Play(t, &s, "reserve L3 slot1")
			}
			assert.True(t, s.Over())
			assert.Equal(t, uint8(0), s.Seat)
			assert.Equal(t, uint8(1<<1), s.Winners())
			var m splendor.ActionSet
			s.Legal(&m)
			assert.Zero(t, m.Len(), "no action once the game is over")
			engine.AssertRefused(t, s, "pass")
		})
	}
}

func TestFirstSeatTriggersFinalRoundOthersStillPlay(t *testing.T) {
	s := engine.MustParse(t, pos("players=3", "p0=004000|44.45.51.57.63|-|-", "market=7.24.36.22/40.41.42.43/70.71.72.73"))
	engine.Play(t, &s, "buy L1 slot1", "take white blue green")
	assert.False(t, s.Over())
	engine.Play(t, &s, "take white blue green")
	assert.True(t, s.Over())
}

func TestWinner(t *testing.T) {
	// Seat 1 ends the final round by taking tokens; seat 0 has 15 points
	// from 6 cards (44 45 51 57 63 7).
	p0 := "p0=000000|7.44.45.51.57.63|-|-"
	cases := []struct {
		name    string
		p0, p1  string
		winners uint8
	}{
		{"most points", p0, "p1=000000|75.76|-|-", 1 << 0},
		{"tied points: fewest cards", p0, "p1=000000|50.75.76.77|-|-", 1 << 1},
		{"nobles count toward points", p0, "p1=000000|50.77.85|-|0", 1 << 1},
		{"tied points and cards: shared", p0, "p1=000000|54.79.80.81.1.2|-|-", 1<<0 | 1<<1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := engine.MustParse(t, pos(tc.p0, tc.p1, "seat=1", "turn=1", "final=1",
				"market=6.24.36.22/40.41.42.43/70.71.72.73", "decks=5/46/74", "nobles=-.1.2.-.-"))
			assert.Zero(t, s.Winners(), "no winner before the end")
			engine.Play(t, &s, "take white blue green")
			assert.True(t, s.Over())
			assert.Equal(t, tc.winners, s.Winners())
		})
	}
}

// stuck: seat 0 holds 3 reserved cards it cannot afford and the supply has
// no gem tokens left.
var stuck = pos("bank=000005", "p0=000000|-|1.75.45|-", "p1=000000|-|77.76.51|-")

func TestPass(t *testing.T) {
	s := engine.MustParse(t, stuck)
	assert.Equal(t, []string{"pass"}, engine.LegalLabels(&s))
	engine.Play(t, &s, "pass")
	assert.Equal(t, uint8(1), s.Seat)
	assert.False(t, s.Over())
	engine.AssertRefused(t, engine.MustParse(t, pos()), "pass") // other actions exist
}

func TestFullRoundOfPassesBlocksTheGame(t *testing.T) {
	s := engine.MustParse(t, stuck)
	engine.Play(t, &s, "pass", "pass")
	assert.True(t, s.Over())
	assert.True(t, s.Blocked())
	assert.Zero(t, s.Winners(), "a blocked game has no winner")
}

func TestNobleOnAPassTurnIsNotAPass(t *testing.T) {
	s := engine.MustParse(t, pos("bank=000005", "nobles=5.-.-.-.-", "passes=1", "seat=1", "turn=1",
		"market=0.22.13.14/40.41.42.43/70.71.72.73",
		"p0=000000|-|1.75.45|-", "p1=000000|2.3.4.8.9.10.16.17.18|77.76.51|6"))
	engine.Play(t, &s, "pass")
	assert.False(t, s.Over())
	assert.Equal(t, uint8(0), s.Passes)
	assert.True(t, s.Players[1].Nobles.Has(5))
}
