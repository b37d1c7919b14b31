package env_test

import (
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/splendor-rl/splendor/env"
	"github.com/splendor-rl/splendor/env/bots"
	_ "github.com/splendor-rl/splendor/env/duelenv"
	_ "github.com/splendor-rl/splendor/env/splendorenv"
	"github.com/splendor-rl/splendor/internal/rng"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const id = "splendor-v1"

func makeReset(t *testing.T, n int, opts env.Options, seed uint64) *env.Vector {
	t.Helper()
	v, err := env.Make(id, n, opts, seed, nil)
	require.NoError(t, err)
	require.NoError(t, v.Reset(nil, nil))
	return v
}

func TestMakeRefusesBadRequests(t *testing.T) {
	_, err := env.Make("chess-v1", 1, nil, 0, nil)
	assert.ErrorIs(t, err, env.ErrUnknownEnv)
	_, err = env.Make(id, 0, nil, 0, nil)
	assert.ErrorIs(t, err, env.ErrBadOption)
	_, err = env.Make(id, 1, env.Options{"autoreset": "sometimes"}, 0, nil)
	assert.ErrorIs(t, err, env.ErrBadOption)
	_, err = env.Make(id, 1, env.Options{"obs_dtype": "float64"}, 0, nil)
	assert.ErrorIs(t, err, env.ErrBadOption)
	_, err = env.Make(id, 1, env.Options{"playerz": 2}, 0, nil)
	assert.ErrorIs(t, err, env.ErrBadOption)
	_, err = env.Make(id, 1, env.Options{"illegal_action": "ignore"}, 0, nil)
	assert.ErrorIs(t, err, env.ErrBadOption)
}

// Env i of a batch made with seed s plays its first episode from s+i, the
// same game a batch of one made with seed s+i plays.
func TestBatchSeedsAreBasePlusIndex(t *testing.T) {
	v := makeReset(t, 4, nil, 100)
	assert.Equal(t, []uint64{100, 101, 102, 103}, v.Seeds())
	single := makeReset(t, 1, nil, 102)
	size := v.Spec.ObsSize()
	assert.Equal(t, single.Obs, v.Obs[2*size:3*size])
}

func TestResetContinuesEachEnvsSeedSequence(t *testing.T) {
	v := makeReset(t, 2, nil, 7)
	assert.Equal(t, []uint64{7, 8}, v.Seeds())
	require.NoError(t, v.Reset(nil, nil))
	assert.Equal(t, []uint64{rng.Derive(7, 1), rng.Derive(8, 1)}, v.Seeds())
	require.NoError(t, v.Reset([]int{1}, []uint64{42}))
	assert.Equal(t, []uint64{rng.Derive(7, 1), 42}, v.Seeds())
	assert.ErrorIs(t, v.Reset([]int{2}, nil), env.ErrBadShape)
	assert.ErrorIs(t, v.Reset([]int{0, 1}, []uint64{1}), env.ErrBadShape)
}

// Parallel stepping is invisible: one worker and two give the same bytes.
func TestWorkersDoNotChangeResults(t *testing.T) {
	one := env.NewPool(1)
	two := env.NewPool(2)
	defer one.Close()
	defer two.Close()
	a, err := env.Make(id, 64, nil, 3, one)
	require.NoError(t, err)
	b, err := env.Make(id, 64, nil, 3, two)
	require.NoError(t, err)
	require.NoError(t, a.Reset(nil, nil))
	require.NoError(t, b.Reset(nil, nil))
	r := rng.New(1)
	actions := make([]int32, 64)
	na := a.Spec.NumActions
	for step := 0; step < 300; step++ {
		for i := range actions {
			actions[i] = env.SampleLegal(a.Mask[i*na:(i+1)*na], &r)
		}
		require.NoError(t, a.Step(actions))
		require.NoError(t, b.Step(actions))
		require.Equal(t, a.Obs, b.Obs)
		require.Equal(t, a.Rewards, b.Rewards)
		require.Equal(t, a.Terminated, b.Terminated)
	}
}

func TestActionErrorNamesEveryOffendingEnv(t *testing.T) {
	v := makeReset(t, 3, nil, 1)
	err := v.Step([]int32{-1, 0, 71}) // out of range, legal take, pass (not legal at the start)
	var ae *env.ActionError
	require.ErrorAs(t, err, &ae)
	assert.Equal(t, []int{0, 2}, ae.Envs)
	assert.ErrorIs(t, err, env.ErrIllegalAction)
}

func TestOptionNumbersOfAnyType(t *testing.T) {
	for _, players := range []any{3, int8(3), uint16(3), int64(3), uint64(3), float32(3), 3.0} {
		v, err := env.Make(id, 1, env.Options{"players": players}, 0, nil)
		require.NoError(t, err, "%T", players)
		assert.Equal(t, 3, v.Spec.Players)
	}
	for _, players := range []any{3.5, uint64(1 << 63), "3", true} {
		_, err := env.Make(id, 1, env.Options{"players": players}, 0, nil)
		assert.ErrorIs(t, err, env.ErrBadOption, "%T %v", players, players)
	}
}

func TestSampleLegal(t *testing.T) {
	r := rng.New(1)
	assert.Equal(t, int32(0), env.SampleLegal([]uint8{0, 0, 0}, &r))
	counts := map[int32]int{}
	for i := 0; i < 3000; i++ {
		counts[env.SampleLegal([]uint8{0, 1, 0, 1, 1}, &r)]++
	}
	assert.Len(t, counts, 3)
	for _, a := range []int32{1, 3, 4} {
		assert.InDelta(t, 1000, counts[a], 150)
	}
}

// Under the forfeit policy an illegal action ends only its own env's episode,
// as a loss for the seat that chose it.
func TestForfeitPolicy(t *testing.T) {
	for _, mode := range []string{"next_step", "same_step", "disabled"} {
		t.Run(mode, func(t *testing.T) {
			v := makeReset(t, 2, env.Options{"illegal_action": "forfeit", "autoreset": mode, "players": 3}, 1)
			assert.Equal(t, env.IllegalForfeit, v.Spec.IllegalAction)
			obs := append([]uint8(nil), v.Obs[:v.Spec.ObsSize()]...)
			require.NoError(t, v.Step([]int32{71, 0})) // pass is illegal at the start; take 3 is legal
			assert.Equal(t, []bool{true, false}, v.Terminated)
			assert.Equal(t, []float32{-1, 0.5, 0.5, 0, 0, 0}, v.Rewards)
			switch mode {
			case "same_step":
				assert.Equal(t, []bool{true, false}, v.Ended)
				assert.Equal(t, obs, v.FinalObs[:v.Spec.ObsSize()])
			default:
				assert.Equal(t, obs, v.Obs[:v.Spec.ObsSize()], "the final observation is the last one")
				assert.Equal(t, make([]uint8, v.Spec.NumActions), v.Mask[:v.Spec.NumActions])
			}
			assert.ErrorIs(t, v.Step([]int32{0, 1000}), env.ErrIllegalAction, "out of range is still an error")
		})
	}
}

// The hot path allocates nothing in steady state: a batched step (engine,
// observation, mask, pool hand-off) of either game. Allocation counts are
// deterministic, unlike timings, so this is a test rather than a benchmark.
func TestStepDoesNotAllocate(t *testing.T) {
	pool := env.NewPool(2)
	defer pool.Close()
	for _, game := range []string{"splendor-v1", "splendor-duel-v1"} {
		for _, opts := range []env.Options{{"mode": "self_play"}, {"mode": "vs_bots", "bots": "greedy"}} {
			v, err := env.Make(game, 64, opts, 1, pool)
			require.NoError(t, err)
			allocs, episodes := stepAllocs(t, v, 200)
			require.Greater(t, episodes, 40, "%s %v", game, opts)
			assert.Less(t, allocs, float64(episodes)/20, "%s %v: %d episodes", game, opts, episodes)
		}
	}
}

// stepAllocs resets v and steps it steps times with random legal actions
// in one run, returning its allocations and the episodes that ended. One
// run, so that the resets of the episodes ending on the way count whole (a
// per-step average rounds them down to zero). The pool's wake-ups now and
// then allocate once in the runtime; an allocation per step or per reset
// shows as one per episode.
func stepAllocs(t *testing.T, v *env.Vector, steps int) (allocs float64, episodes int) {
	require.NoError(t, v.Reset(nil, nil))
	r := rng.New(1)
	actions := make([]int32, v.Len())
	na := v.Spec.NumActions
	allocs = testing.AllocsPerRun(1, func() {
		for range steps {
			for i := range actions {
				actions[i] = env.SampleLegal(v.Mask[i*na:(i+1)*na], &r)
			}
			require.NoError(t, v.Step(actions))
			for i := range v.Len() {
				if v.Terminated[i] || v.Truncated[i] {
					episodes++
				}
			}
		}
	})
	return allocs, episodes
}

// An env waiting for its next-step autoreset ignores its action, but not an
// action that is no index at all.
func TestEndedEnvsStillRefuseOutOfRangeActions(t *testing.T) {
	v := makeReset(t, 1, env.Options{"max_rounds": 1}, 3)
	for !v.Truncated[0] && !v.Terminated[0] {
		require.NoError(t, v.Step([]int32{env.FirstLegal(v.Mask)}))
	}
	for _, a := range []int32{-1, int32(v.Spec.NumActions)} {
		var ae *env.ActionError
		require.ErrorAs(t, v.Step([]int32{a}), &ae, "action %d", a)
		require.Equal(t, []int{0}, ae.Envs)
	}
	require.NoError(t, v.Step([]int32{0}), "an in-range action is ignored and the env restarts")
	require.False(t, v.Truncated[0])
}

// obs_seats "all": row i holds every seat's view, seat 0 first; the seat to
// play's view is what obs_seats "to_play" serves, and a waiting seat's view
// follows the table.
func TestEverySeatsObservation(t *testing.T) {
	for _, game := range []string{"splendor-v1", "splendor-duel-v1"} {
		for _, dtype := range []string{"uint8", "float32"} {
			all, err := env.Make(game, 3, env.Options{"obs_seats": "all", "obs_dtype": dtype}, 5, nil)
			require.NoError(t, err)
			one, err := env.Make(game, 3, env.Options{"obs_dtype": dtype}, 5, nil)
			require.NoError(t, err)
			players, size := all.Spec.Players, one.Spec.ObsSize()
			require.Equal(t, append([]int{players}, one.Spec.ObsShape...), all.Spec.ObsShape)
			require.NoError(t, all.Reset(nil, nil))
			require.NoError(t, one.Reset(nil, nil))
			before := append([]uint8(nil), all.Obs...)
			for step := 0; step < 20; step++ {
				for i := 0; i < 3; i++ {
					seat := int(all.ToPlay[i])
					row := all.Obs[(i*players+seat)*size : (i*players+seat+1)*size]
					require.Equal(t, one.Obs[i*size:(i+1)*size], row, "%s env %d: the seat to play's view", game, i)
					if dtype == "float32" {
						require.Equal(t, one.ObsF32[i*size:(i+1)*size], all.ObsF32[(i*players+seat)*size:(i*players+seat+1)*size])
					}
				}
				actions := make([]int32, 3)
				for i := range actions {
					actions[i] = env.FirstLegal(one.Mask[i*one.Spec.NumActions : (i+1)*one.Spec.NumActions])
				}
				require.NoError(t, all.Step(actions))
				require.NoError(t, one.Step(actions))
			}
			waiting := 1 - int(all.ToPlay[0]) // a seat not to play in env 0 (2 players)
			require.NotEqual(t, before[waiting*size:(waiting+1)*size], all.Obs[waiting*size:(waiting+1)*size],
				"%s: a waiting seat's view changes as the table does", game)
		}
	}
}

// Batches of any size, stepped at once from several goroutines on one pool
// (its workers hop between them and wake late into later batches), give the
// bytes a pool of one gives.
func TestSharedPoolChunksEveryBatchExactlyOnce(t *testing.T) {
	shared, one := env.NewPool(3), env.NewPool(1)
	defer shared.Close()
	defer one.Close()
	sizes := []int{1, 31, 33, 100, 257}
	errs := make(chan error, len(sizes))
	for _, n := range sizes {
		go func() { errs <- sameAsOneWorker(n, shared, one) }()
	}
	for range sizes {
		require.NoError(t, <-errs)
	}
}

func sameAsOneWorker(n int, shared, one *env.Pool) error {
	a, err := env.Make(id, n, nil, uint64(n), one)
	if err != nil {
		return err
	}
	b, _ := env.Make(id, n, nil, uint64(n), shared)
	if err := errors.Join(a.Reset(nil, nil), b.Reset(nil, nil)); err != nil {
		return err
	}
	r := rng.New(uint64(n))
	actions := make([]int32, n)
	na := a.Spec.NumActions
	for step := 0; step < 200; step++ {
		for i := range actions {
			actions[i] = env.SampleLegal(a.Mask[i*na:(i+1)*na], &r)
		}
		if err := errors.Join(a.Step(actions), b.Step(actions)); err != nil {
			return err
		}
		if !slices.Equal(a.Obs, b.Obs) || !slices.Equal(a.Rewards, b.Rewards) || !slices.Equal(a.Mask, b.Mask) {
			return fmt.Errorf("batch of %d: step %d differs", n, step)
		}
	}
	return nil
}

// Stop cuts a batch's searches short while they run, the bots' advice and
// the bots' own turns alike: a closed batch must not hold the cores for
// the seconds its searches would take (64 searches of 20,000 iterations are
// about 15 s of two cores).
//
// Measured in work, not time: searches run at a low priority and crawl on a
// busy machine. Once a search is seen to run, Stop; after it, the searches
// running (one per search slot) finish at most the 32 iterations up to their
// next look at stop, and the searches that start after it run none; without
// Stop the same call would run every env's 20,000.
func TestStopCutsSearchesShort(t *testing.T) {
	const envs, iterations = 64, 20000
	heavy := fmt.Sprintf("mcts:iterations=%d", iterations)
	bound := 32 * min(envs, env.DefaultSearchSlots(env.DefaultPool().Workers()))
	require.Less(t, 100*bound, envs*iterations, "the bound is far below the work of a call not stopped")
	for _, c := range []struct {
		name string
		opts env.Options
		run  func(v *env.Vector) error
	}{
		{"bot_actions", nil, func(v *env.Vector) error {
			_, err := v.BotActions(nil, heavy, 1, nil)
			return err
		}},
		{"the bots' turns", env.Options{"mode": "vs_bots", "seat": 1, "bots": heavy}, func(v *env.Vector) error {
			return v.Reset(nil, nil) // the bot in seat 0 plays first
		}},
	} {
		v, err := env.Make(id, envs, c.opts, 1, nil)
		require.NoError(t, err)
		t.Cleanup(v.Stop) // a failed check leaves no search running
		if c.opts == nil {
			require.NoError(t, v.Reset(nil, nil))
		}
		done := make(chan error, 1)
		before := searched()
		go func() { done <- c.run(v) }()
		returned := func() bool {
			select {
			case err = <-done:
				return true
			default:
				return false
			}
		}
		waitUntil(t, func() bool {
			require.False(t, returned(), "%s: returned before a search was seen running", c.name)
			return searched() > before
		}, "%s: a search runs", c.name)
		v.Stop()
		stopped := searched()
		waitUntil(t, func() bool {
			require.LessOrEqual(t, searched()-stopped, int64(bound), "%s: iterations after Stop", c.name)
			return returned()
		}, "%s: returns after Stop", c.name)
		require.LessOrEqual(t, searched()-stopped, int64(bound), "%s: iterations after Stop", c.name)
		t.Logf("%s: %d iterations before Stop, %d after", c.name, stopped-before, searched()-stopped)
		if c.opts == nil {
			require.ErrorIs(t, err, env.ErrStopped)
		}
	}
}

// searched is the mcts iterations this process has run (no test of the
// package runs searches in parallel with another).
func searched() int64 {
	iterations, _ := bots.Searched()
	return iterations
}

// waitUntil polls ready until it holds. Its limit of minutes only catches
// a hang: a search starved on a busy machine may take seconds to reach its
// next look at stop.
func waitUntil(t *testing.T, ready func() bool, format string, args ...any) {
	t.Helper()
	for limit := time.Now().Add(3 * time.Minute); !ready(); time.Sleep(time.Millisecond) {
		if time.Now().After(limit) {
			t.Fatalf("not within 3 minutes: "+format, args...)
		}
	}
}
