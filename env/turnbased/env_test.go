package turnbased_test

import (
	"testing"

	"github.com/splendor-rl/splendor/env"
	_ "github.com/splendor-rl/splendor/env/duelenv"
	_ "github.com/splendor-rl/splendor/env/splendorenv"
	_ "github.com/splendor-rl/splendor/env/turnbased/climb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// games are the turn-based envs with their largest table.
var games = map[string]int{"splendor-v1": 4, "splendor-duel-v1": 2, "climb-v0": 3}

// one is a batch of one env of id with opts, reset with seed.
func one(t *testing.T, id string, opts env.Options, seed uint64) *env.Vector {
	v, err := env.Make(id, 1, opts, 0, nil)
	require.NoError(t, err)
	require.NoError(t, v.Reset(nil, []uint64{seed}))
	return v
}

func TestTurnLimitTruncates(t *testing.T) {
	for id := range games {
		v := one(t, id, env.Options{"max_rounds": 2, "autoreset": "disabled"}, 1)
		for !v.Truncated[0] && !v.Terminated[0] {
			require.NoError(t, v.Step([]int32{env.FirstLegal(v.Mask)}))
		}
		assert.True(t, v.Truncated[0], id)
		assert.Regexp(t, `(?i)\bturn"?[=:]4\b`, must(v.States(nil))[0], "%s: 2 rounds of 2 seats", id)
	}
}

func must[T any](x T, err error) T {
	if err != nil {
		panic(err)
	}
	return x
}

// In vs-bots mode the bots play until the client's seat, drawn per episode
// unless fixed, is to decide.
func TestVsBotsSeats(t *testing.T) {
	for id, players := range games {
		seen := make([]int, players)
		for seed := uint64(0); seed < uint64(100*players); seed++ {
			v := one(t, id, env.Options{"mode": "vs_bots", "players": players}, seed)
			seen[v.ToPlay[0]]++
		}
		for seat, n := range seen {
			assert.Greater(t, n, 60, "%s: seat %d drawn %d times", id, seat, n)
		}
		fixed := one(t, id, env.Options{"mode": "vs_bots", "players": players, "seat": players - 1}, 5)
		assert.Equal(t, int32(players-1), fixed.ToPlay[0], id)
	}
}

// A bot's kind never changes the deal: it draws from its own stream.
func TestBotsDoNotChangeTheDeal(t *testing.T) {
	for id := range games {
		for seed := uint64(0); seed < 20; seed++ {
			random := one(t, id, env.Options{"mode": "vs_bots", "seat": 0, "bots": "random"}, seed)
			greedy := one(t, id, env.Options{"mode": "vs_bots", "seat": 0, "bots": "greedy"}, seed)
			require.Equal(t, random.Obs, greedy.Obs, id)
		}
	}
}

func TestBadOptions(t *testing.T) {
	for id, players := range games {
		for _, opts := range []env.Options{
			{"players": players + 1}, {"players": "two"}, {"mode": "solo"}, {"bots": []any{"greedy"}},
			{"bots": "minimax"}, {"seat": 2}, // of a default table of 2
			{"max_rounds": 0}, {"reward": "dense"}, {"colour": "red"},
		} {
			_, err := env.Make(id, 1, opts, 0, nil)
			assert.ErrorIs(t, err, env.ErrBadOption, "%s %v", id, opts)
		}
	}
}

// A vs-bots step is budgeted for the searches of the bots it may run: the
// client's own seat plays none, so a fixed seat's bot is left out, and a
// seat drawn per episode leaves out the cheapest.
func TestSearchIterationsLeaveOutTheClientsSeat(t *testing.T) {
	bots := []any{"mcts:100", "puct:200", "greedy", "gumbel:50"}
	for _, c := range []struct {
		opts env.Options
		want int
	}{
		{env.Options{"players": 4, "mode": "vs_bots", "bots": "mcts:100"}, 300},
		{env.Options{"players": 4, "mode": "vs_bots", "bots": bots, "seat": 1}, 150},
		{env.Options{"players": 4, "mode": "vs_bots", "bots": bots, "seat": 2}, 350},
		{env.Options{"players": 4, "mode": "vs_bots", "bots": bots}, 350},
		{env.Options{"players": 4, "mode": "self_play", "bots": bots}, 0},
	} {
		v, err := env.Make("splendor-v1", 1, c.opts, 0, nil)
		require.NoError(t, err)
		assert.Equal(t, c.want, v.SearchIterations(), "%v", c.opts)
	}
}

// A guided bot (gumbel, puct) sits in a seat as any bot does: its games
// follow from the seed, whoever replays them.
func TestGuidedBotsPlayASeat(t *testing.T) {
	for id, players := range games {
		for _, bot := range []string{"gumbel:16", "puct:16"} {
			opts := env.Options{"mode": "vs_bots", "players": players, "bots": bot, "seat": 0, "autoreset": "same_step"}
			play := func() []byte {
				v := one(t, id, opts, 7)
				var seen []byte
				for range 12 {
					require.NoError(t, v.Step([]int32{env.FirstLegal(v.Mask)}))
					seen = append(seen, v.Obs...)
				}
				return seen
			}
			assert.Equal(t, play(), play(), "%s %s", id, bot)
		}
	}
}
