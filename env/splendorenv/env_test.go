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

// assertEnd checks that e's episode ended, terminated by the rules or else
// truncated, with rewards want.
func assertEnd(t *testing.T, e *Env, terminated bool, want []float32) {
	t.Helper()
	term, trunc := e.Status()
	assert.Equal(t, []bool{terminated, !terminated}, []bool{term, trunc}, "terminated, truncated")
	r := make([]float32, len(want))
	e.Rewards(r)
	assert.Equal(t, want, r)
}

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
			assertEnd(t, e, true, tc.want)
			assert.Equal(t, 1, e.ToPlay(), "the last actor's view at the end")
		})
	}
}

func TestThreePlayerRewardsAreZeroSum(t *testing.T) {
	e := selfPlayEnv(t, "players=3 seat=2 phase=main turn=2 final=1 passes=0 bank=555555 nobles=-.1.2.-.- "+
		"market=6.24.36.22/40.41.42.43/70.71.72.73 decks=5/46/74 p0=000000|7.44.45.51.57.63|-|- "+
		"p1=000000|-|-|- p2=000000|-|-|-")
	require.NoError(t, e.Step(label(t, "take white blue green")))
	assertEnd(t, e, true, []float32{1, -0.5, -0.5})
}

func TestBlockedGameIsTruncatedWithoutReward(t *testing.T) {
	e := selfPlayEnv(t, "players=2 seat=1 phase=main turn=1 final=0 passes=1 bank=000005 nobles=0.1.2.-.- "+
		"market=0.24.36.22/40.41.42.43/70.71.72.73 decks=5.6/46/74 p0=000000|-|1.75.45|- p1=000000|-|77.76.51|-")
	require.NoError(t, e.Step(label(t, "pass")))
	assertEnd(t, e, false, []float32{0, 0})
	mask := make([]uint8, splendor.NumActions)
	e.Mask(mask)
	assert.Equal(t, make([]uint8, splendor.NumActions), mask)
	assert.ErrorIs(t, e.Step(label(t, "pass")), env.ErrIllegalAction)
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
	envtest.BadOptions(t, ID, env.Options{"players": 5}, env.Options{"payment": "gold"}, env.Options{"payment": true})
}

func TestGreedyBeatsRandom(t *testing.T) {
	wins, _ := envtest.GreedyWinRate(t, Game, 1000)
	t.Logf("greedy wins %.1f%% of 1000 seeded 2-player games against random", float64(wins)/10)
	assert.GreaterOrEqual(t, wins, 900)
}
