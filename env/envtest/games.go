package envtest

import (
	"testing"

	"github.com/splendor-rl/splendor/env"
	"github.com/splendor-rl/splendor/env/turnbased"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// GreedyWinRate plays n games of g with the greedy bot in the client's seat
// (drawn per episode) against random bots: its wins, and the games cut
// short.
func GreedyWinRate[S any, G turnbased.Rules[S]](t *testing.T, g *turnbased.Game[S, G], n int) (wins, truncated int) {
	e := NewEnv(t, g, env.Options{"mode": "vs_bots", "bots": "random"})
	for seed := uint64(0); seed < uint64(n); seed++ {
		e.Reset(seed)
		me := NewBot[S, G]("greedy", seed)
		for !e.Done() {
			s := e.State()
			require.NoError(t, e.Step(me.Act(&s)))
		}
		if s := e.State(); G(&s).Winners() == 1<<e.ToPlay() {
			wins++
		}
		if _, trunc := e.Status(); trunc {
			truncated++
		}
	}
	return wins, truncated
}

// BadOptions checks that env id refuses every option every turn-based game
// refuses, and the game's own bad ones.
func BadOptions(t *testing.T, id string, own ...env.Options) {
	shared := []env.Options{{"mode": "solo"}, {"bots": []any{"greedy"}}, {"bots": "minimax"}, {"seat": 4},
		{"max_rounds": 0}, {"reward": "dense"}, {"colour": "red"}, {"players": "two"}}
	for _, opts := range append(shared, own...) {
		_, err := env.Make(id, 1, opts, 1, nil)
		assert.ErrorIs(t, err, env.ErrBadOption, "%v", opts)
	}
}

// PaymentChoices is how often a game's payment choice (Game.Payment) arose
// in games between bots of one kind.
type PaymentChoices struct {
	Games, GamesChoosing int // games, and those with at least one choice
	Buys, Choices        int // purchases, and those that asked how to pay
	Truncated            int // games cut at twice the default turn limit
}

// CountPaymentChoices plays games of g with the payment choice between bots
// of kind; buy tells a purchase, and paying a game that asks how to pay.
func CountPaymentChoices[S any, G turnbased.Rules[S]](t *testing.T, g *turnbased.Game[S, G], players int, kind string,
	games int, buy func(action int) bool, paying func(s *S) bool) PaymentChoices {
	var n PaymentChoices
	for seed := uint64(0); seed < uint64(games); seed++ {
		s := g.Deal(players, seed)
		*g.Payment(&s) = true
		seats := make([]*Bot[S, G], players)
		for i := range seats {
			seats[i] = NewBot[S, G](kind, turnbased.BotSeed(seed, i))
		}
		before := n.Choices
		cut := func() bool { // over, or past twice the default turn limit
			_, turns, over := G(&s).Progress()
			return over || turns >= uint32(2*turnbased.DefaultMaxRounds*players)
		}
		for !cut() {
			a := seats[G(&s).ToPlay()].Act(&s)
			require.NoError(t, G(&s).Apply(a))
			if buy(a) {
				n.Buys++
				n.Choices += b2i(paying(&s))
			}
		}
		n.Games++
		n.GamesChoosing += b2i(n.Choices > before)
		n.Truncated += b2i(!G(&s).Over())
	}
	return n
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
