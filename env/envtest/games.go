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
