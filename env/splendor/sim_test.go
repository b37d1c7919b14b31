package splendor_test

import (
	"testing"

	"github.com/splendor-rl/splendor/env/splendor"
	"github.com/splendor-rl/splendor/internal/rulestest"
	"github.com/stretchr/testify/require"
)

// TestRandomSimulation plays many seeded games for every player count, with
// the automatic payment and with the payment choice, and checks the
// engine's invariants after every decision.
func TestRandomSimulation(t *testing.T) {
	engine.Simulate(t, deals(rulestest.Games(300)), checkPaymentRulesAgree)
}

// checkPaymentRulesAgree: the payment rule changes nothing about which
// actions are legal in the main phase, and a buy paid with "pay done" (gems
// first) ends exactly where the automatic payment does.
func checkPaymentRulesAgree(t *testing.T, s *splendor.State) {
	if s.Phase != splendor.PhaseMain {
		return
	}
	auto, choose := *s, *s
	auto.ChoosePayment, choose.ChoosePayment = false, true
	var am, cm splendor.ActionSet
	auto.Legal(&am)
	choose.Legal(&cm)
	if am != cm {
		t.Fatalf("the payment rule changes the legal actions in %s", s)
	}
	done, _ := splendor.ParseAction("pay done")
	for k := 0; k < am.Len(); k++ {
		i := am.Nth(k)
		if kind := splendor.ActionAt(i).Kind; kind != splendor.BuyCard && kind != splendor.BuyReserved {
			continue
		}
		a, c := auto, choose
		require.NoError(t, a.Apply(i))
		require.NoError(t, c.Apply(i))
		for c.Phase == splendor.PhasePay {
			require.NoError(t, c.Apply(done))
		}
		c.ChoosePayment = false
		if a != c {
			t.Fatalf("%q then pay done: %s, automatic payment: %s", splendor.Label(i), c, a)
		}
	}
}

func TestSameSeedSameDeal(t *testing.T) {
	for players := 2; players <= 4; players++ {
		a, _ := splendor.New(players, 99)
		b, _ := splendor.New(players, 99)
		c, _ := splendor.New(players, 100)
		require.Equal(t, a, b)
		require.NotEqual(t, a.String(), c.String())
	}
}

func TestSetupByPlayerCount(t *testing.T) {
	cases := []struct{ players, gems, nobles int }{{2, 4, 3}, {3, 5, 4}, {4, 7, 5}}
	for _, tc := range cases {
		s, err := splendor.New(tc.players, 1)
		require.NoError(t, err)
		for g := splendor.White; g <= splendor.Black; g++ {
			require.Equal(t, tc.gems, int(s.Bank[g]))
		}
		require.Equal(t, splendor.GoldTokens, int(s.Bank[splendor.Gold]))
		revealed := 0
		for _, n := range s.Nobles {
			if n != splendor.NoNoble {
				revealed++
			}
		}
		require.Equal(t, tc.nobles, revealed)
		require.Equal(t, [3]uint8{36, 26, 16}, s.DeckSize, "4 face-up cards dealt per level")
		for l := 0; l < splendor.NumLevels; l++ {
			for _, c := range s.Market[l] {
				require.Equal(t, uint8(l), c.Info().Level)
			}
		}
	}
	for _, bad := range []int{0, 1, 5} {
		_, err := splendor.New(bad, 1)
		require.ErrorIs(t, err, splendor.ErrPlayers)
	}
}
