package env_test

import (
	"encoding/json"
	"fmt"
	"math"
	"path/filepath"
	"testing"

	"github.com/splendor-rl/splendor/env"
	"github.com/splendor-rl/splendor/env/nets"
	"github.com/splendor-rl/splendor/internal/nettest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// randomBaseline is a random network of env id trained with options,
// written as its file (named for players) and loaded.
func randomBaseline(t *testing.T, id string, players int, options env.Options, seed uint64) (env.Baseline, *nets.Net) {
	t.Helper()
	v, err := env.Make(id, 1, options, 0, nil)
	require.NoError(t, err)
	f := nettest.RandomNet(seed, v.Spec.ObsSize(), v.Spec.NumActions, 32, 2)
	meta, err := json.Marshal(options)
	require.NoError(t, err)
	f.Meta["env"], f.Meta["options"] = id, string(meta)
	path, err := f.Write(t.TempDir(), fmt.Sprintf("%s-%dp.safetensors", id, players))
	require.NoError(t, err)
	n, err := nets.Load(path)
	require.NoError(t, err)
	return env.NetBaseline(filepath.Base(path), players, "", n), n
}

// withBaselines installs bs for the test.
func withBaselines(t *testing.T, bs ...env.Baseline) {
	t.Helper()
	require.NoError(t, env.SetBaselines(bs))
	t.Cleanup(func() { require.NoError(t, env.SetBaselines(nil)) })
}

// "baseline" plays the network's argmax on the observation the env serves
// the seat to play, with the features block when the network was trained
// with it, position after position of games its own moves play.
func TestBaselineIsTheNetworksArgmax(t *testing.T) {
	for _, c := range []struct {
		id      string
		options env.Options
	}{
		{"splendor-v1", env.Options{"players": 3}},
		{"splendor-v1", env.Options{"players": 2, "features": "derived"}},
		{"splendor-duel-v1", env.Options{"features": "derived"}},
	} {
		players := 2
		if p, ok := c.options["players"].(int); ok {
			players = p
		}
		b, n := randomBaseline(t, c.id, players, c.options, 11)
		withBaselines(t, b)
		v, err := env.Make(c.id, 16, c.options, 5, nil)
		require.NoError(t, err)
		require.NoError(t, v.Reset(nil, nil))
		ev := n.NewEvaluator()
		obs, na := v.Spec.ObsSize(), v.Spec.NumActions
		positions := 0
		for step := 0; step < 60; step++ {
			actions, err := v.BotActions(nil, "baseline", 0, nil)
			require.NoError(t, err)
			for i, a := range actions {
				if a < 0 {
					continue
				}
				want := ev.Argmax(v.Obs[i*obs:(i+1)*obs], v.Mask[i*na:(i+1)*na])
				require.Equal(t, int32(want), a, "%s %v, env %d, step %d", c.id, c.options, i, step)
				positions++
			}
			for i, a := range actions {
				actions[i] = max(a, 0) // an env waiting for its autoreset ignores its action
			}
			require.NoError(t, v.Step(actions))
		}
		assert.Greater(t, positions, 900, "%s %v", c.id, c.options)
	}
}

// A network trained with the features block reads it even where the env
// it plays in does not serve it.
func TestBaselineObservesAsItsNetworkWasTrained(t *testing.T) {
	options := env.Options{"players": 2, "features": "derived"}
	b, n := randomBaseline(t, "splendor-v1", 2, options, 12)
	withBaselines(t, b)
	with, err := env.Make("splendor-v1", 8, options, 9, nil)
	require.NoError(t, err)
	without, err := env.Make("splendor-v1", 8, env.Options{"players": 2}, 9, nil)
	require.NoError(t, err)
	require.NoError(t, with.Reset(nil, nil))
	require.NoError(t, without.Reset(nil, nil))
	want, err := with.BotActions(nil, "baseline", 0, nil)
	require.NoError(t, err)
	got, err := without.BotActions(nil, "baseline", 0, nil)
	require.NoError(t, err)
	assert.Equal(t, want, got)
	assert.Greater(t, n.Obs(), without.Spec.ObsSize())
}

func TestBaselinePlaysLegalMovesAgainstTheClient(t *testing.T) {
	for _, id := range []string{"splendor-v1", "splendor-duel-v1"} {
		b, _ := randomBaseline(t, id, 2, env.Options{"players": 2}, 13)
		withBaselines(t, b)
		for _, bot := range []string{"baseline", "baseline+search:8"} {
			v, err := env.Make(id, 4, env.Options{"players": 2, "mode": "vs_bots", "bots": bot}, 1, nil)
			require.NoError(t, err, bot)
			require.NoError(t, v.Reset(nil, nil))
			episodes := 0
			for step := 0; step < 400 && episodes < 4; step++ {
				actions, err := v.BotActions(nil, "random", uint64(step), nil) // the client plays at random
				require.NoError(t, err)
				for i, a := range actions {
					actions[i] = max(a, 0) // an env waiting for its autoreset ignores its action
				}
				require.NoError(t, v.Step(actions)) // a bot's illegal move panics
				for _, ended := range v.Terminated {
					episodes += btoi(ended)
				}
			}
			assert.Positive(t, episodes, "%s %s: no episode ended", id, bot)
		}
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// A network that values every seat guides its search with those values
// (max-n), at three and four players: the search's targets hold every
// seat's root value, in range, and the other seats' values count (the same
// network without them, its seat to play's value alone, searches
// otherwise).
func TestBaselineSearchWithEverySeatsValues(t *testing.T) {
	for players := 3; players <= 4; players++ {
		opts := env.Options{"players": players}
		v := makeReset(t, 4, opts, 3)
		targets := func(values int) *env.BotTargets {
			f := nettest.RandomNet(21, v.Spec.ObsSize(), v.Spec.NumActions, 32, 2)
			f.Reshape("value.weight", players, 32)
			f.Reshape("value.bias", players)
			for _, name := range []string{"value.weight", "value.bias"} { // the seat to play's row only
				w := f.Tensor(name)
				w.Shape[0], w.Values = values, w.Values[:len(w.Values)/players*values]
			}
			f.Meta["options"] = fmt.Sprintf(`{"players": %d}`, players)
			path, err := f.Write(t.TempDir(), fmt.Sprintf("splendor-v1-%dp.safetensors", players))
			require.NoError(t, err)
			n, err := nets.Load(path)
			require.NoError(t, err)
			withBaselines(t, env.NetBaseline(filepath.Base(path), players, "", n))
			_, targets, err := v.BotTargets(nil, "baseline+search:24", 7, nil)
			require.NoError(t, err)
			return targets
		}
		every, own := targets(players), targets(1)
		for i := range 4 {
			row := every.Values[i*players : (i+1)*players]
			assert.Equal(t, every.Value[i], row[0], "%d players, env %d", players, i)
			for _, x := range row {
				assert.LessOrEqual(t, math.Abs(float64(x)), 1.0, "%d players, env %d: %v", players, i, row)
			}
		}
		assert.NotEqual(t, every.Values, own.Values, "%d players: the other seats' values changed nothing", players)
	}
}

func TestBaselineSearchIsLegalReproducibleAndCounted(t *testing.T) {
	b, _ := randomBaseline(t, "splendor-v1", 2, env.Options{"players": 2}, 14)
	withBaselines(t, b)
	v := makeReset(t, 6, env.Options{"players": 2}, 3)
	first, err := v.BotActions(nil, "baseline+search:24", 7, nil)
	require.NoError(t, err)
	again, err := v.BotActions(nil, "baseline+search:24", 7, nil)
	require.NoError(t, err)
	assert.Equal(t, first, again, "the same seeds, another answer")
	na := v.Spec.NumActions
	for i, a := range first {
		assert.Equal(t, uint8(1), v.Mask[i*na+int(a)], "env %d: illegal action %d", i, a)
	}
	_, targets, err := v.BotTargets(nil, "baseline+search:24", 7, nil)
	require.NoError(t, err)
	for i := range first {
		sum := float32(0)
		for _, p := range targets.Policy[i*na : (i+1)*na] {
			sum += p
		}
		assert.InDelta(t, 1, sum, 1e-5, "env %d", i)
		assert.LessOrEqual(t, math.Abs(float64(targets.Value[i])), 1.0)
	}
	_, _, err = v.BotTargets(nil, "baseline", 7, nil)
	assert.ErrorIs(t, err, env.ErrBadOption, "baseline does not search: no targets")
	vs, err := env.Make("splendor-v1", 1, env.Options{"players": 2, "mode": "vs_bots", "bots": "baseline+search:300"}, 0, nil)
	require.NoError(t, err)
	assert.Equal(t, 300, vs.SearchIterations(), "the bot seat's simulations, as mcts iterations count: the client's seat plays no bot")
}

func TestBaselineIsRefusedWhereNoNetworkPlays(t *testing.T) {
	b, _ := randomBaseline(t, "splendor-v1", 2, env.Options{"players": 2}, 15)
	withBaselines(t, b)
	_, err := env.Make("splendor-v1", 1, env.Options{"players": 3, "mode": "vs_bots", "bots": "baseline"}, 0, nil)
	require.ErrorIs(t, err, env.ErrBadOption)
	assert.Contains(t, err.Error(), "no baseline network for splendor-v1 with 3 players")
	assert.Contains(t, err.Error(), "splendor-v1-2p.safetensors")
	v := makeReset(t, 1, env.Options{"players": 4}, 0)
	_, err = v.BotActions(nil, "baseline+search:5", 0, nil)
	assert.ErrorIs(t, err, env.ErrBadOption)
	require.NoError(t, env.SetBaselines(nil))
	_, err = env.Make("splendor-v1", 1, env.Options{"players": 2, "bots": "baseline"}, 0, nil)
	require.ErrorIs(t, err, env.ErrBadOption)
	assert.Contains(t, err.Error(), "none are loaded")
}

func TestSetBaselinesRefusesANetworkNotOfItsEnv(t *testing.T) {
	good, _ := randomBaseline(t, "splendor-v1", 2, env.Options{"players": 2}, 16)
	duel, _ := randomBaseline(t, "splendor-duel-v1", 2, env.Options{}, 17)
	for _, c := range []struct {
		name   string
		change func(b *env.Baseline)
		want   string
	}{
		{"unknown env", func(b *env.Baseline) { b.Env = "chess-v1" }, "unknown env id"},
		{"named for other players", func(b *env.Baseline) { b.Players = 3 }, "named for 3 players, but trained with 2"},
		{"observations of another size", func(b *env.Baseline) { b.Network.Obs++ }, "reads observations of"},
		{"another action space", func(b *env.Baseline) { b.Network.Actions-- }, "logits, but splendor-v1 has"},
		{"values for three seats", func(b *env.Baseline) { b.Network.Values = 3 },
			"has 3 values, but a value head has 1 (the seat to play's) or one per seat (2)"},
		{"options the env refuses", func(b *env.Baseline) { b.Options = env.Options{"players": 2, "colour": "red"} },
			"training options are not splendor-v1's"},
		{"another env's network", func(b *env.Baseline) { b.Network = duel.Network }, "reads observations of"},
	} {
		b := good
		c.change(&b)
		err := env.SetBaselines([]env.Baseline{b})
		require.Error(t, err, c.name)
		assert.Contains(t, err.Error(), good.Name+": ", c.name)
		assert.Contains(t, err.Error(), c.want, c.name)
	}
	err := env.SetBaselines([]env.Baseline{good, good})
	require.ErrorContains(t, err, "as splendor-v1-2p.safetensors does")
	assert.Empty(t, env.BaselineNames(), "a refused set installed something")
}

// A baseline bot's turns allocate nothing in steady state (the pattern of
// TestStepDoesNotAllocate): its evaluator and buffers are pooled.
func TestBaselineTurnsDoNotAllocate(t *testing.T) {
	if raceEnabled {
		t.Skip("under -race sync.Pool drops items at random; make test also runs this test without it")
	}
	b, _ := randomBaseline(t, "splendor-v1", 2, env.Options{"players": 2}, 18)
	withBaselines(t, b)
	pool := env.NewPool(2)
	defer pool.Close()
	v, err := env.Make("splendor-v1", 32, env.Options{"mode": "vs_bots", "bots": "baseline", "max_rounds": 15}, 1, pool)
	require.NoError(t, err)
	allocs, episodes := stepAllocs(t, v, 150)
	require.Greater(t, episodes, 40)
	assert.Less(t, allocs, float64(episodes)/20, "%d episodes", episodes)
}
