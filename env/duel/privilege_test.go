package duel_test

import (
	"fmt"
	"testing"

	"github.com/splendor-rl/splendor/env/duel"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestUsingPrivileges(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"a privilege takes any gem or pearl and the turn goes on", pos("p0=0000000|1|-|-|-"),
			[]string{"privilege d5"},
			pos("board=wbgrk/bgrkw/growb/rkwpg/okb.o", "p0=0000010|0|-|-|-")},
		{"each privilege is its own decision, then the mandatory action", pos("p0=0000000|2|-|-|-"),
			[]string{"privilege e4", "privilege a1", "take b1"},
			handed("board=..grk/bgrkw/growb/rkwp./okbpo", "p0=1110000|0|-|-|-")},
	})
}

func TestPrivilegeLegality(t *testing.T) {
	runLegalCases(t, []legalCase{
		{"never gold, never an empty cell", pos("p0=0000000|1|-|-|-", "board=wbgrk/bgrkw/growb/rkwpg/okbp."),
			[]string{"privilege a1", "privilege d4"},
			[]string{"privilege c3", "privilege a5", "privilege e5"}},
		{"none held", pos(), nil, []string{"privilege a1"}},
		{"not after replenishing", pos("p0=0000000|1|-|-|-", "replenished=1", "bag=0000001"),
			[]string{"take a1"},
			[]string{"privilege a1", "replenish"}},
	})
}

// spiralGaps empties c3, b4, c2 (spiral steps 1, 3 and 6) and e5 (the last).
const spiralGaps = "board=wbgrk/bg.kw/gr.wb/r.wpg/okbp."

func TestReplenish(t *testing.T) {
	s := engine.MustParse(t, pos(spiralGaps, "bag=0000003"))
	before := s
	engine.Play(t, &s, "replenish")
	assert.NotEqual(t, before.Chance, s.Chance, "the draw moves the chance state on")
	s.Chance = before.Chance
	assert.Equal(t, pos("board=wbgrk/bgokw/growb/rowpg/okbp.", "replenished=1", "p1=0000000|2|-|-|-"), s.String(),
		"the bag's tokens fill the empty cells along the spiral from the centre; the opponent takes a privilege")
	assert.Equal(t, uint8(0), s.Seat, "replenishing is optional and the turn goes on")
	engine.AssertRefused(t, s, "replenish")

	s = engine.MustParse(t, pos("p0=0000000|1|-|-|-", "board=wbgrk/bgrkw/gr.wb/rkwpg/okbpo", "bag=0000001"))
	engine.Play(t, &s, "privilege a1", "replenish", "take b1")
	s.Chance = before.Chance
	assert.Equal(t, handed("board=..grk/bgrkw/growb/rkwpg/okbpo", "p0=1100000|0|-|-|-",
		"p1=0000000|2|-|-|-"), s.String(), "privileges, then replenish, then the mandatory action")
}

func TestReplenishDrawsFromTheChanceState(t *testing.T) {
	arrangements := map[string]bool{}
	for chance := uint64(0); chance < 40; chance++ {
		s := engine.MustParse(t, pos(spiralGaps, "bag=1001001"))
		s.Chance = chance
		twin := s
		engine.Play(t, &s, "replenish")
		engine.Play(t, &twin, "replenish")
		require.Equal(t, s, twin, "a clone draws the same tokens")
		var placed duel.Tokens
		for _, c := range []int{12, 16, 7, 24} { // c3 b4 c2 e5
			if g := s.Board[c]; g != duel.NoGem {
				placed[g]++
			}
		}
		require.Equal(t, duel.Tokens{1, 0, 0, 1, 0, 0, 1}, placed)
		require.Equal(t, duel.NoGem, s.Board[24], "three tokens fill the first three gaps of the spiral")
		arrangements[fmt.Sprint(s.Board)] = true
	}
	assert.Len(t, arrangements, 6, "every order of three different tokens is drawn")
}

func TestReplenishLegality(t *testing.T) {
	runLegalCases(t, []legalCase{
		{"the bag is empty", pos(spiralGaps), []string{"take a1"}, []string{"replenish"}},
		{"optional while other actions exist", pos(spiralGaps, "bag=0000001"), []string{"replenish", "take a1"}, nil},
	})
}

const emptyBoard = "board=...../...../...../...../....."

func TestForcedReplenish(t *testing.T) {
	s := engine.MustParse(t, pos(emptyBoard, "bag=4444423"))
	assert.Equal(t, []string{"replenish"}, engine.LegalLabels(&s), "no mandatory action: the seat must replenish first")
	engine.Play(t, &s, "replenish")
	assert.Equal(t, uint8(0), s.Seat)
	assert.Equal(t, uint8(2), s.Players[1].Privileges, "a forced replenish gives the opponent a privilege too")
	assert.Equal(t, duel.Tokens{}, s.Bag)
	assert.Contains(t, engine.LegalLabels(&s), "take c3", "then the seat acts")
}

func TestPass(t *testing.T) {
	stuck := pos(emptyBoard)
	s := engine.MustParse(t, stuck)
	assert.Equal(t, []string{"pass"}, engine.LegalLabels(&s), "no token to take, nothing in the bag, nothing to buy")
	engine.Play(t, &s, "pass")
	assert.Equal(t, uint8(1), s.Seat)
	assert.Equal(t, uint8(1), s.Passes)
	assert.False(t, s.Over())
	engine.Play(t, &s, "pass")
	assert.True(t, s.Over(), "both seats passed with nothing changing: the game can never move again")
	assert.True(t, s.Blocked())
	assert.Zero(t, s.Winners())
	assert.Empty(t, engine.LegalLabels(&s))

	engine.AssertRefused(t, engine.MustParse(t, pos()), "pass")
	goldOnly := engine.MustParse(t, pos("board=o..../...../...../...../.....", "p0=0000000|0|-|1.2.3|-"))
	assert.Equal(t, []string{"pass"}, engine.LegalLabels(&goldOnly), "gold needs a free reserve slot")
	acting := engine.MustParse(t, pos("passes=1", "seat=1", "turn=1"))
	engine.Play(t, &acting, "take a1")
	assert.Equal(t, uint8(0), acting.Passes, "a turn with an action resets the count")
}

func TestPassAfterPrivilegesStillReturnsTokens(t *testing.T) {
	// Seat 0 takes the last gem with a privilege: nothing mandatory is left
	// (no gem, no gold, an empty bag, nothing affordable), so it passes, but
	// over the limit; the returned token refills the bag for the opponent.
	s := engine.MustParse(t, pos("board=w..../...../...../...../.....", "pyramid=-.-.-.-.-/-.-.-.-/-.-.-", "decks=-/-/-",
		"p0=2222110|1|-|64.65.66|-"))
	engine.Play(t, &s, "privilege a1")
	assert.Equal(t, []string{"pass"}, engine.LegalLabels(&s))
	engine.Play(t, &s, "pass")
	assert.Equal(t, duel.PhaseReturn, s.Phase)
	engine.Play(t, &s, "return black")
	assert.Equal(t, uint8(0), s.Passes, "the turn changed the bag: not a pass")
	assert.Equal(t, uint8(1), s.Seat)
	assert.Equal(t, []string{"replenish"}, engine.LegalLabels(&s))
}
