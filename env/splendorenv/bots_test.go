package splendorenv

import (
	"testing"

	"github.com/splendor-rl/splendor/env"
	"github.com/splendor-rl/splendor/env/envtest"
	"github.com/splendor-rl/splendor/env/splendor"
	"github.com/splendor-rl/splendor/env/turnbased"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The greedy bot keeps its gold, as the automatic payment does, without
// drawing from its stream: an all-greedy table plays the same game under
// both payment rules, the choice costing one "pay done" per payment.
func TestGreedyPlaysTheSameGameUnderBothPaymentRules(t *testing.T) {
	payments := 0
	for seed := uint64(0); seed < 100; seed++ {
		auto, choose := newTable(3, seed, "greedy", false), newTable(3, seed, "greedy", true)
		for !auto.s.Over() {
			_, err := auto.step()
			require.NoError(t, err)
			_, err = choose.step()
			require.NoError(t, err)
			for choose.s.Phase == splendor.PhasePay {
				payments++
				kind, err := choose.step()
				require.NoError(t, err)
				require.Equal(t, splendor.PayDone, kind)
			}
			c := choose.s
			c.ChoosePayment = false
			require.Equal(t, auto.s.String(), c.String())
		}
	}
	assert.Positive(t, payments, "no payment choice arose: the test checks nothing")
}

// newPlayer is a built-in bot of kind drawing from seed.
func newPlayer(kind string, seed uint64) *envtest.Bot[game, *game] {
	return envtest.NewBot[game](kind, seed)
}

// table is a game in which every seat is a built-in bot of one kind.
type botTable struct {
	s       game
	players [splendor.MaxPlayers]*envtest.Bot[game, *game]
}

func newTable(players int, seed uint64, kind string, choose bool) *botTable {
	t := &botTable{}
	t.s.State, _ = splendor.New(players, seed)
	t.s.ChoosePayment = choose
	for i := 0; i < players; i++ {
		t.players[i] = newPlayer(kind, turnbased.BotSeed(seed, i))
	}
	return t
}

// step plays the next decision and returns its kind.
func (t *botTable) step() (splendor.Kind, error) {
	a := t.players[t.s.Seat].Act(&t.s)
	return splendor.ActionAt(a).Kind, t.s.Apply(a)
}

// TestHowOftenThePaymentChoiceArises measures, for the record, the share of
// purchases and of games in which the buyer had a real payment choice.
func TestHowOftenThePaymentChoiceArises(t *testing.T) {
	games := 2000
	if testing.Short() {
		games = 200
	}
	for _, kind := range []string{"random", "greedy"} {
		for players := splendor.MinPlayers; players <= splendor.MaxPlayers; players++ {
			n := envtest.CountPaymentChoices(t, Game, players, kind, games, func(a int) bool {
				k := splendor.ActionAt(a).Kind
				return k == splendor.BuyCard || k == splendor.BuyReserved
			}, func(s *game) bool { return s.Phase == splendor.PhasePay })
			t.Logf("%s, %d players: a choice in %.1f%% of %d purchases, in %.1f%% of %d games (%d cut short)", kind,
				players, 100*float64(n.Choices)/float64(n.Buys), n.Buys, 100*float64(n.GamesChoosing)/float64(n.Games),
				n.Games, n.Truncated)
			assert.Positive(t, n.Choices)
		}
	}
}

func TestPaymentOption(t *testing.T) {
	for _, c := range []struct {
		opts   env.Options
		choose bool
	}{{nil, false}, {env.Options{"payment": "auto"}, false}, {env.Options{"payment": "choose"}, true}} {
		e := makeEnv(t, c.opts)
		e.Reset(3)
		assert.Equal(t, c.choose, e.State().ChoosePayment, "%v", c.opts)
	}
}
