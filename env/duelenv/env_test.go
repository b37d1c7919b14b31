package duelenv

import (
	"testing"

	"github.com/splendor-rl/splendor/env"
	"github.com/splendor-rl/splendor/env/duel"
	"github.com/splendor-rl/splendor/env/envtest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestGreedyBeatsRandom(t *testing.T) {
	wins, truncated := envtest.GreedyWinRate(t, Game, 1000)
	t.Logf("greedy wins %d of 1000 seeded games against random (%d truncated)", wins, truncated)
	assert.GreaterOrEqual(t, wins, 900)
}

func TestTerminalRewardsAndStatus(t *testing.T) {
	e := envtest.NewEnv(t, Game, nil)
	for seed := uint64(0); seed < 50; seed++ {
		e.Reset(seed)
		var mask [duel.NumActions]uint8
		for !e.Done() {
			e.Mask(mask[:])
			require.NoError(t, e.Step(int(env.FirstLegal(mask[:]))))
		}
		term, trunc := e.Status()
		r := make([]float32, 2)
		e.Rewards(r)
		switch {
		case term:
			s := e.State()
			winner := int(s.Seat)
			assert.Equal(t, float32(1), r[winner])
			assert.Equal(t, float32(-1), r[1-winner])
			assert.NotZero(t, s.Players[winner].Victory(), "the winner met a victory condition")
		case trunc:
			assert.Equal(t, []float32{0, 0}, r)
		}
		e.Mask(mask[:])
		assert.Equal(t, [duel.NumActions]uint8{}, mask)
	}
}

func TestBadOptions(t *testing.T) { envtest.BadOptions(t, ID, env.Options{"players": 3}) }
