package duelenv

import (
	"testing"

	"github.com/splendor-rl/splendor/env"
	"github.com/splendor-rl/splendor/env/duel"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func makeEnv(t *testing.T, opts env.Options) *Env {
	t.Helper()
	o := env.NewOptionReader(opts)
	c := readConfig(o)
	require.NoError(t, o.Check())
	return newEnv(c)
}

// greedyWinRate plays n games of the greedy bot (the client's seat, drawn
// per episode) against the random bot.
func greedyWinRate(t *testing.T, n int) (wins, truncated int) {
	e := makeEnv(t, env.Options{"mode": "vs_bots", "bots": "random"})
	for seed := uint64(0); seed < uint64(n); seed++ {
		e.Reset(seed)
		me := newPlayer("greedy", seed)
		for !e.done() {
			require.NoError(t, e.Step(me.Act((*game)(&e.s))))
		}
		if e.s.Winners() == 1<<e.seats.Me {
			wins++
		}
		if _, trunc := e.Status(); trunc {
			truncated++
		}
	}
	return wins, truncated
}

func TestGreedyBeatsRandom(t *testing.T) {
	wins, truncated := greedyWinRate(t, 1000)
	t.Logf("greedy wins %d of 1000 seeded games against random (%d truncated)", wins, truncated)
	assert.GreaterOrEqual(t, wins, 900)
}

func TestTerminalRewardsAndStatus(t *testing.T) {
	e := makeEnv(t, nil)
	for seed := uint64(0); seed < 50; seed++ {
		e.Reset(seed)
		var mask [duel.NumActions]uint8
		for !e.done() {
			e.Mask(mask[:])
			require.NoError(t, e.Step(firstLegal(mask[:])))
		}
		term, trunc := e.Status()
		r := make([]float32, 2)
		e.Rewards(r)
		switch {
		case term:
			winner := int(e.s.Seat)
			assert.Equal(t, float32(1), r[winner])
			assert.Equal(t, float32(-1), r[1-winner])
			assert.NotZero(t, e.s.Players[winner].Victory(), "the winner met a victory condition")
		case trunc:
			assert.Equal(t, []float32{0, 0}, r)
		}
		e.Mask(mask[:])
		assert.Equal(t, [duel.NumActions]uint8{}, mask)
	}
}

func firstLegal(mask []uint8) int {
	for a, m := range mask {
		if m == 1 {
			return a
		}
	}
	return -1
}

func TestTurnLimitTruncates(t *testing.T) {
	e := makeEnv(t, env.Options{"max_rounds": 2})
	e.Reset(3)
	var mask [duel.NumActions]uint8
	for !e.done() {
		e.Mask(mask[:])
		require.NoError(t, e.Step(firstLegal(mask[:])))
	}
	_, trunc := e.Status()
	assert.True(t, trunc)
	assert.GreaterOrEqual(t, e.s.Turn, uint32(4))
}

func TestVsBotsSeats(t *testing.T) {
	e := makeEnv(t, env.Options{"mode": "vs_bots"})
	seats := [2]int{}
	for seed := uint64(0); seed < 200; seed++ {
		e.Reset(seed)
		seats[e.seats.Me]++
		require.Equal(t, e.seats.Me, int(e.s.Seat), "the bot played until the client's turn")
		require.Equal(t, e.seats.Me, e.ToPlay())
	}
	assert.Greater(t, seats[0], 60)
	assert.Greater(t, seats[1], 60)
}

// A bot's kind never changes the deal: it draws from its own stream.
func TestBotsDoNotChangeTheDeal(t *testing.T) {
	random := makeEnv(t, env.Options{"mode": "vs_bots", "seat": 0, "bots": "random"})
	greedy := makeEnv(t, env.Options{"mode": "vs_bots", "seat": 0, "bots": "greedy"})
	for seed := uint64(0); seed < 20; seed++ {
		random.Reset(seed)
		greedy.Reset(seed)
		require.Equal(t, duel.New(seed), random.State(), "the episode seed deals duel.New(seed)")
		require.Equal(t, random.State(), greedy.State())
	}
}

func TestBadOptions(t *testing.T) {
	for _, opts := range []env.Options{
		{"players": 3}, {"mode": "solo"}, {"bots": "minimax"}, {"seat": 2}, {"max_rounds": 0}, {"reward": "dense"},
		{"colour": "red"},
	} {
		o := env.NewOptionReader(opts)
		readConfig(o)
		assert.ErrorIs(t, o.Check(), env.ErrBadOption, "%v", opts)
	}
}
