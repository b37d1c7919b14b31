package duel_test

import (
	"testing"

	"github.com/splendor-rl/splendor/env/duel"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A pyramid slot emptied by the turn's buy or reserve is refilled as the
// turn passes (the publisher's ruling, as Board Game Arena applies it): the
// turn's later decisions see it empty. The base pyramid is 0.5.10.15.20 /
// 30.34.38.42 / 60.61.62 with decks 6.7.8 / 35 / 63 (the last id is the top).

func TestRefillWaitsForTheEndOfTheTurn(t *testing.T) {
	noCentreGold := "board=wbgrk/bgrkw/gr.wb/rkwpg/okbpo"
	reserving := []string{noCentreGold, "pyramid=0.-.10.15.20/30.34.38.42/60.61.62"}
	runRuleCases(t, []ruleCase{
		{"a reserve, then returns: the slot is empty while the seat returns", pos("p0=3322000|0|-|-|-"),
			[]string{"gold c3", "reserve L1 slot2"},
			pos(with(reserving, "phase=return", "p0=3322001|0|-|5|-")...)},
		{"and refilled once the turn is over", pos("p0=3322000|0|-|-|-"),
			[]string{"gold c3", "reserve L1 slot2", "return white"},
			handed(noCentreGold, "pyramid=0.8.10.15.20/30.34.38.42/60.61.62", "decks=6.7/35/63",
				"bag=1000000", "p0=2322001|0|-|5|-")},
		{"an extra turn is a new turn: it sees, and may buy, the new card", pos(l1("1"), "p0=0250010|0|-|-|-"),
			[]string{"buy L1 slot1", "buy L1 slot1"},
			handed("turn=2", "pyramid=7.5.10.15.20/30.34.38.42/60.61.62", "decks=6/35/63",
				"bag=0250010", "p0=0000000|0|1.8|-|-")},
		{"an empty deck: the slot stays empty", pos(l1("2"), "decks=-/35/63", "p0=0002200|0|-|-|-"),
			[]string{"buy L1 slot1", "token d3"},
			handed(with(taken, "decks=-/35/63", "board=wbgrk/bgrkw/gro.b/rkwpg/okbpo", "bag=0002200",
				"p0=1000000|0|2|-|-")...)},
	})
}

func TestNothingInTheTurnSeesOrTakesTheEmptySlot(t *testing.T) {
	s := engine.MustParse(t, pos(l1("2"), "p0=0002201|0|-|-|-"))
	engine.Play(t, &s, "buy L1 slot1")
	require.Equal(t, duel.PhaseToken, s.Phase)
	assert.Equal(t, duel.NoCard, s.Pyramid[0], "the token ability is decided before the refill")
	assert.Equal(t, uint8(3), s.DeckSize[0])
	for _, l := range []string{"buy L1 slot1", "reserve L1 slot1", "gold c3"} {
		engine.AssertRefused(t, s, l)
	}
	engine.Play(t, &s, "token d3")
	assert.Equal(t, duel.Card(8), s.Pyramid[0])
}

func TestNoRefillAfterTheWinningTurn(t *testing.T) {
	s := engine.MustParse(t, pos(l1("4"), "p0=0022000|0|"+nineteen+"|-|-"))
	engine.Play(t, &s, "buy L1 slot1")
	require.True(t, s.Over())
	assert.Equal(t, duel.NoCard, s.Pyramid[0], "the game ended with the turn: no next turn to refill for")
	assert.Equal(t, uint8(3), s.DeckSize[0])
	back := engine.MustParse(t, s.String())
	assert.Equal(t, s, back)
}
