package duelenv

import (
	"testing"

	"github.com/splendor-rl/splendor/env/duel"
	"github.com/splendor-rl/splendor/env/envtest"
	"github.com/splendor-rl/splendor/env/turnbased"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestGreedyPaysWithTokensButKeepsAPearlItNeeds(t *testing.T) {
	s, err := duel.Parse(paying)
	require.NoError(t, err)
	b := newPlayer("greedy", 1)
	assert.Equal(t, "pay done", duel.Label(b.Act(&game{s})), "gold is worth more than any one gem")

	// Paying for card 29 (4 red, 1 pearl) with 4 red, 1 pearl and 1 gold.
	s, err = duel.Parse("payment=choose seat=0 phase=pay turn=0 passes=0 again=0 replenished=0 pending=29:000401 " +
		"chance=0000000000000001 bag=0000000 board=wbgrk/bgrkw/growb/rkwpg/okbpo " +
		"pyramid=-.5.10.15.20/30.34.38.42/60.61.62 decks=6.7.8/35/63 p0=0004011|0|-|-|- p1=0000000|1|-|-|-")
	require.NoError(t, err)
	g := greedy{s: &s, p: &s.Players[0], opp: &s.Players[1]}
	g.goal = 33 // costs a pearl
	assert.Equal(t, 1, g.keepValue(duel.Pearl), "keep the pearl the target needs")
	assert.Equal(t, -1, g.keepValue(duel.Red))
	g.goal = 30 // costs no pearl
	assert.Equal(t, -1, g.keepValue(duel.Pearl))
}

// newPlayer is a built-in bot of kind drawing from seed.
func newPlayer(kind string, seed uint64) *envtest.Bot[game, *game] {
	return envtest.NewBot[game](kind, seed)
}

// TestPaymentChoiceFrequency measures how often the variant asks how to pay
// (reported in docs/envs/splendor-duel.md).
func TestPaymentChoiceFrequency(t *testing.T) {
	games := 1000
	if testing.Short() {
		games = 100
	}
	for _, kind := range []string{"random", "greedy"} {
		st := envtest.CountPaymentChoices(t, Game, duel.NumPlayers, kind, games, func(a int) bool {
			k := duel.ActionAt(a).Kind
			return k == duel.BuyCard || k == duel.BuyReserved
		}, func(s *game) bool { return s.Phase == duel.PhasePay })
		t.Logf("%s vs %s, %d games (%d cut at %d rounds): %d of %d purchases asked how to pay (%.1f%%), "+
			"in %d games (%.1f%%)", kind, kind, st.Games, st.Truncated, 2*turnbased.DefaultMaxRounds, st.Choices,
			st.Buys, 100*float64(st.Choices)/float64(st.Buys), st.GamesChoosing,
			100*float64(st.GamesChoosing)/float64(st.Games))
		assert.Positive(t, st.Choices, "%s players never met a choice of payment", kind)
	}
}
