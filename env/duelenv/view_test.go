package duelenv

import (
	"strings"
	"testing"

	"github.com/splendor-rl/splendor/env"
	"github.com/splendor-rl/splendor/env/duel"
	"github.com/splendor-rl/splendor/env/envtest"
	tv "github.com/splendor-rl/splendor/env/tableview"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The board of the observed position as seat 1 sees it, in vs-bots mode:
// the 5×5 board by rows, the bag, what is left on the table, seat 0's blind
// reserve (63) face down and seat 1's own (64) shown.
func TestBoardAsASeatSeesIt(t *testing.T) {
	s, err := duel.Parse(observed)
	require.NoError(t, err)
	e := envtest.NewEnv(t, Game, env.Options{"mode": "vs_bots", "seat": 1})
	e.Reset(0) // seats the client at 1
	e.Load(game{s})
	view, board := e.View(1, true)
	v := view.(StateView)
	assert.Equal(t, 1, *v.ClientSeat)
	assert.True(t, *v.Over)
	assert.Empty(t, v.Chance, "the bag's future is the referee's")
	assert.Equal(t, []int{3, 1, 1}, v.DeckSizes)
	lines := strings.Split(board, "\n")
	assert.Equal(t, []string{
		"Splendor Duel: turn 4, seat 1 to act (main), payment auto",
		"board       a b c d e    bag W0 U1 G0 R0 K0 P0 gold 0",
		"          1 W U G R K",
		"          2 U G R K W",
		"          3 G R $ W U", // growb: o is gold
		"          4 R K W P G",
		"          5 $ K U P .",
		"table     1 privileges, royals [2p privilege] [2p steal] [3p]",
	}, lines[:8])
	assert.Contains(t, board, "reserved "+cardText(1)+" [level 3, face down]\n")
	assert.Contains(t, board, "reserved "+cardText(64)+" (blind)\n")
	assert.Contains(t, board, "> seat 1  ")

	_, referee := e.View(tv.Referee, false)
	assert.NotContains(t, referee, "face down", "the referee sees every card")
}

// A card's text spells its bonus, points, crowns, ability and cost, as
// duel_cards.csv prints them.
func TestCardText(t *testing.T) {
	assert.Equal(t, "[W 0p: U1 G1 R1 K1]", cardText(0)) // 1,white,1,0,0,none,0,1,1,1,1,0
	assert.Equal(t, "[W 0p again: U2 G2 P1]", cardText(1))
}
