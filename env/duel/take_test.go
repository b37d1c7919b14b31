package duel_test

import (
	"strings"
	"testing"

	"github.com/splendor-rl/splendor/env/duel"
	"github.com/stretchr/testify/assert"
)

// The base board (helpers_test.go):
//
//	  a b c d e
//	1 w b g r k
//	2 b g r k w
//	3 g r o w b
//	4 r k w p g
//	5 o k b p o

// TestTakingLines: a line's tokens leave the board for the seat (tokens:
// its counts after, white blue green red black pearl gold) and the turn
// passes to seat 1.
func TestTakingLines(t *testing.T) {
	var cases []ruleCase
	for _, c := range []struct{ name, take, board, tokens string }{
		{"one token", "take a1", ".bgrk/bgrkw/growb/rkwpg/okbpo", "1000000"},
		{"two along a row", "take a1 b1", "..grk/bgrkw/growb/rkwpg/okbpo", "1100000"},
		{"two along a column", "take a1 a2", ".bgrk/.grkw/growb/rkwpg/okbpo", "1100000"},
		{"two on a diagonal", "take a1 b2", ".bgrk/b.rkw/growb/rkwpg/okbpo", "1010000"},
		{"two on an anti-diagonal", "take b1 a2", "w.grk/.grkw/growb/rkwpg/okbpo", "0200000"},
		{"three along a row", "take c2 d2 e2", "wbgrk/bg.../growb/rkwpg/okbpo", "1001100"},
		{"three along a column", "take e1 e2 e3", "wbgr./bgrk./grow./rkwpg/okbpo", "1100100"},
		{"three on a diagonal", "take b1 c2 d3", "w.grk/bg.kw/gro.b/rkwpg/okbpo", "1101000"},
		{"three on an anti-diagonal, one pearl: no privilege", "take e3 d4 c5", "wbgrk/bgrkw/grow./rkw.g/ok.po", "0200010"},
	} {
		after := handed("board="+c.board, "p0="+c.tokens+"|0|-|-|-")
		cases = append(cases, ruleCase{c.name, pos(), []string{c.take}, after})
	}
	runRuleCases(t, cases)
}

func TestTakingGivesTheOpponentAPrivilege(t *testing.T) {
	threeGreens := "board=wb.rk/b.rkw/.rowb/rkwpg/okbpo"
	runRuleCases(t, []ruleCase{
		{"three of one colour", pos(), []string{"take c1 b2 a3"},
			handed(threeGreens, "p0=0030000|0|-|-|-", "p1=0000000|2|-|-|-")},
		{"both pearls", pos(), []string{"take d4 d5"},
			handed("board=wbgrk/bgrkw/growb/rkw.g/okb.o", "p0=0000020|0|-|-|-", "p1=0000000|2|-|-|-")},
		{"both pearls in a line of three", pos(), []string{"take d3 d4 d5"},
			handed("board=wbgrk/bgrkw/gro.b/rkw.g/okb.o", "p0=1000020|0|-|-|-", "p1=0000000|2|-|-|-")},
		{"supply empty: the privilege comes from the taker", pos("p0=0000000|2|-|-|-"), []string{"take c1 b2 a3"},
			handed(threeGreens, "p0=0030000|1|-|-|-", "p1=0000000|2|-|-|-")},
		{"opponent already holds all three: nothing", pos("p1=0000000|3|-|-|-"), []string{"take c1 b2 a3"},
			handed(threeGreens, "p0=0030000|0|-|-|-", "p1=0000000|3|-|-|-")},
		{"two of one colour: no privilege", pos("board=wwgrk/bgrkw/growb/rkwpg/okbpo"), []string{"take a1 b1"},
			handed("board=..grk/bgrkw/growb/rkwpg/okbpo", "p0=2000000|0|-|-|-")},
	})
}

func TestLineLegality(t *testing.T) {
	runLegalCases(t, []legalCase{
		{"gold is never taken, nor taken through", pos(),
			[]string{"take b3", "take b2 b3 b4", "take d3 d4", "take c2"},
			[]string{"take c3", "take b3 c3 d3", "take c2 c3 c4", "take b2 c3 d4", "take d2 c3 b4", "take b3 c3",
				"take a5", "take a4 a5", "take d5 e5"}},
		{"an empty cell breaks a line", pos("board=w.grk/bgrkw/growb/rkwpg/okbpo"),
			[]string{"take a1", "take c1 d1 e1", "take a1 a2", "take c1 b2 a3"},
			[]string{"take b1", "take a1 b1", "take a1 b1 c1", "take b1 c1", "take b1 b2 b3", "take b1 a2"}},
		{"a pearl is taken like a gem", pos(),
			[]string{"take d4", "take d4 e4", "take c4 d4 e4"},
			nil},
	})
}

func TestEveryLineOfAFullBoardIsLegal(t *testing.T) {
	// No gold, no privilege, nothing to buy: exactly the 25 + 72 + 48 lines.
	s := engine.MustParse(t, pos("board=wbgrk/bgrkw/grpwb/rkwpg/wkbrg"))
	legal := engine.LegalLabels(&s)
	assert.Len(t, legal, 145)
	bySize := map[int]int{}
	for _, l := range legal {
		assert.True(t, strings.HasPrefix(l, "take "), l)
		bySize[len(strings.Fields(l))-1]++
	}
	assert.Equal(t, map[int]int{1: 25, 2: 72, 3: 48}, bySize)
}

func TestLinesThatAreNotLines(t *testing.T) {
	for _, l := range []string{"take e1 a2", "take a1 c1", "take a1 b1 c1 d1", "take a1 b1 b2", "take d1 e1 f1",
		"take a1 a1", "take c3 b2 a1"} {
		_, err := duel.ParseAction(l)
		assert.Error(t, err, l)
	}
}
