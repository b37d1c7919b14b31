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

// Env is a splendor-v1 env on its own.
type Env = turnbased.Env[game, *game]

func makeEnv(t *testing.T, opts env.Options) *Env { return envtest.NewEnv(t, Game, opts) }

func label(t *testing.T, l string) int {
	i, err := splendor.ParseAction(l)
	require.NoError(t, err)
	return i
}

// Seat 1 ends the final round; seat 0 has 15 points from 6 cards.
const lastMove = "players=2 seat=1 phase=main turn=1 final=1 passes=0 bank=444445 nobles=-.1.2.-.- " +
	"market=6.24.36.22/40.41.42.43/70.71.72.73 decks=5/46/74 p0=000000|7.44.45.51.57.63|-|- "

func TestTerminalRewards(t *testing.T) {
	cases := []struct {
		name, p1 string
		want     []float32
	}{
		{"seat 0 wins", "p1=000000|75.76|-|-", []float32{1, -1}},
		{"seat 1 wins on fewer cards", "p1=000000|50.75.76.77|-|-", []float32{-1, 1}},
		{"shared victory", "p1=000000|54.79.80.81.1.2|-|-", []float32{0, 0}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := selfPlayEnv(t, lastMove+tc.p1)
			require.NoError(t, e.Step(label(t, "take white blue green")))
			term, trunc := e.Status()
			assert.True(t, term)
			assert.False(t, trunc)
			r := make([]float32, 2)
			e.Rewards(r)
			assert.Equal(t, tc.want, r)
			assert.Equal(t, 1, e.ToPlay(), "the last actor's view at the end")
		})
	}
}

func TestThreePlayerRewardsAreZeroSum(t *testing.T) {
	e := selfPlayEnv(t, "players=3 seat=2 phase=main turn=2 final=1 passes=0 bank=555555 nobles=-.1.2.-.- "+
		"market=6.24.36.22/40.41.42.43/70.71.72.73 decks=5/46/74 p0=000000|7.44.45.51.57.63|-|- "+
		"p1=000000|-|-|- p2=000000|-|-|-")
	require.NoError(t, e.Step(label(t, "take white blue green")))
	r := make([]float32, 3)
	e.Rewards(r)
	assert.Equal(t, []float32{1, -0.5, -0.5}, r)
}

func TestBlockedGameIsTruncatedWithoutReward(t *testing.T) {
	e := selfPlayEnv(t, "players=2 seat=1 phase=main turn=1 final=0 passes=1 bank=000005 nobles=0.1.2.-.- "+
		"market=0.24.36.22/40.41.42.43/70.71.72.73 decks=5.6/46/74 p0=000000|-|1.75.45|- p1=000000|-|77.76.51|-")
	require.NoError(t, e.Step(label(t, "pass")))
	term, trunc := e.Status()
	assert.False(t, term)
	assert.True(t, trunc)
	r := make([]float32, 2)
	e.Rewards(r)
	assert.Equal(t, []float32{0, 0}, r)
	mask := make([]uint8, splendor.NumActions)
	e.Mask(mask)
	assert.Equal(t, make([]uint8, splendor.NumActions), mask)
	assert.ErrorIs(t, e.Step(label(t, "pass")), env.ErrIllegalAction)
}

func firstLegal(mask []uint8) int {
	for a, m := range mask {
		if m == 1 {
			return a
		}
	}
	return -1
}

func TestScoreDiffShaping(t *testing.T) {
	// Seat 0 buys card 45 (3 points, 6 white) in a 2-player game.
	e := envAt(t, "players=2 seat=0 phase=main turn=0 final=0 passes=0 bank=000005 nobles=0.1.2.-.- "+
		"market=0.24.36.22/45.41.42.43/70.71.72.73 decks=5.6/46/74 p0=600000|-|-|- p1=000000|-|-|-",
		env.Options{"reward": "score_diff"}) // no points yet: the potentials are zero
	require.NoError(t, e.Step(label(t, "buy L2 slot1")))
	r := make([]float32, 2)
	e.Rewards(r)
	assert.InDeltaSlice(t, []float32{3.0 / 15, -3.0 / 15}, r, 1e-6)
}

func TestBadOptions(t *testing.T) {
	for _, opts := range []env.Options{
		{"players": 5},
		{"players": "two"},
		{"mode": "solo"},
		{"bots": []any{"greedy"}},
		{"bots": "minimax"},
		{"seat": 2},
		{"max_rounds": 0},
		{"reward": "dense"},
		{"payment": "gold"},
		{"payment": true},
		{"colour": "red"},
	} {
		_, err := turnbased.New(Game, opts)
		assert.ErrorIs(t, err, env.ErrBadOption, "%v", opts)
	}
}

// greedyWinRate plays n 2-player games of the greedy bot (the client's seat,
// drawn per episode) against the random bot.
func greedyWinRate(t *testing.T, n int) float64 {
	e := makeEnv(t, env.Options{"mode": "vs_bots", "bots": "random"})
	wins := 0
	for seed := uint64(0); seed < uint64(n); seed++ {
		e.Reset(seed)
		me := newPlayer("greedy", seed)
		for !e.Done() {
			s := e.State()
			require.NoError(t, e.Step(me.Act(&s)))
		}
		if s := e.State(); s.Winners() == 1<<e.ToPlay() {
			wins++
		}
	}
	return float64(wins) / float64(n)
}

func TestGreedyBeatsRandom(t *testing.T) {
	rate := greedyWinRate(t, 1000)
	t.Logf("greedy wins %.1f%% of 1000 seeded 2-player games against random", 100*rate)
	assert.GreaterOrEqual(t, rate, 0.9)
}
