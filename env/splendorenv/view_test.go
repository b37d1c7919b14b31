package splendorenv

import (
	"strings"
	"testing"

	tv "github.com/splendor-rl/splendor/env/tableview"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The board of the observed position as seat 1 sees it: seat 0's blind
// reserve (*45) face down with its level, seat 1's own (*75) shown, ">"
// at the seat to act, the market from level 3 down with deck sizes (cards
// as in splendor_cards.csv: card 70 is 3,white,3,0,3,3,5,3).
func TestBoardAsASeatSeesIt(t *testing.T) {
	e := selfPlayEnv(t, observed)
	view, board := e.View(1, false)
	v := view.(StateView)
	require.Empty(t, v.Notation)
	require.Nil(t, v.Decks)
	assert.Equal(t, []int{0, 1, 1}, v.DeckSizes)
	lines := strings.Split(board, "\n")
	assert.Equal(t, "Splendor: turn 8, seat 1 to act (main), payment auto", lines[0])
	assert.Equal(t, "bank      W4 U3 G5 R2 K2 gold 5", lines[1])
	assert.Equal(t, "L3 (1)    1 [W 3p: U3 G3 R5 K3]  2 [W 4p: W3 R3 K6]  3 [W 4p: K7]  4 [W 5p: W3 K7]", lines[3])
	assert.Equal(t, "L1 (0)    1 [W 0p: W3 U1 K1]  2 [R 0p: W3]  3 [K 0p: G3]  4 [empty]", lines[5])
	assert.Equal(t, "          reserved [W 0p: U3] [level 2, face down]", lines[7])
	assert.True(t, strings.HasPrefix(lines[8], "> seat 1  "), lines[8])
	assert.Equal(t, "          reserved [U 4p: W7] (blind)", lines[9], "card 75: 3,blue,4,7,0,0,0,0")

	_, referee := e.View(tv.Referee, false)
	assert.NotContains(t, referee, "face down", "the referee sees every card")
}
