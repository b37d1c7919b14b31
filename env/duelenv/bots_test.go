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

// paymentStats counts, over games of the "choose payment" variant between
// two bots of one kind, the purchases, those that asked how to pay, the
// pay decisions that spent gold, and the games with at least one choice.
type paymentStats struct {
	games, gamesAsked, buys, asked, goldPaid, truncated int
}

func measurePayments(t *testing.T, kind string, games int) paymentStats {
	var st paymentStats
	for seed := uint64(0); seed < uint64(games); seed++ {
		s := game{duel.New(seed)}
		s.ChoosePayment = true
		players := [duel.NumPlayers]*envtest.Bot[game, *game]{newPlayer(kind, turnbased.BotSeed(seed, 0)), newPlayer(kind, turnbased.BotSeed(seed, 1))}
		asked := false
		for !s.Over() && s.Turn < 2*turnbased.DefaultMaxRounds*duel.NumPlayers {
			a := players[s.Seat].Act(&s)
			kind := duel.ActionAt(a).Kind
			st.buys += b2i(kind == duel.BuyCard || kind == duel.BuyReserved)
			st.goldPaid += b2i(kind == duel.PayGold)
			buying := s.Phase == duel.PhaseMain
			require.NoError(t, s.Apply(a))
			if buying && s.Phase == duel.PhasePay {
				st.asked++
				asked = true
			}
		}
		st.games++
		st.gamesAsked += b2i(asked)
		st.truncated += b2i(!s.Over())
	}
	return st
}

// TestPaymentChoiceFrequency measures how often the variant asks how to pay
// (reported in docs/envs/splendor-duel.md).
func TestPaymentChoiceFrequency(t *testing.T) {
	games := 1000
	if testing.Short() {
		games = 100
	}
	for _, kind := range []string{"random", "greedy"} {
		st := measurePayments(t, kind, games)
		t.Logf("%s vs %s, %d games (%d cut at %d rounds): %d of %d purchases asked how to pay (%.1f%%), "+
			"in %d games (%.1f%%); %d pay decisions spent gold", kind, kind, st.games, st.truncated,
			2*turnbased.DefaultMaxRounds, st.asked, st.buys, 100*float64(st.asked)/float64(st.buys), st.gamesAsked,
			100*float64(st.gamesAsked)/float64(st.games), st.goldPaid)
		assert.Positive(t, st.asked, "%s players never met a choice of payment", kind)
	}
}
