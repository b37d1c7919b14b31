// Package envtest is the conformance suite every registered env must pass
// (after OpenSpiel's basic_tests RandomSimulation and ResampleInfostateTest):
// it plays random legal actions and checks the env.Env and env.Vector
// contract at every step.
package envtest

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/splendor-rl/splendor/env"
	"github.com/splendor-rl/splendor/internal/rng"
	"github.com/stretchr/testify/require"
)

// Case is one env id with options to check.
type Case struct {
	ID      string
	Options env.Options
	// MaxEpisodeSteps bounds the decisions of one episode (the turn limit
	// times the most decisions a turn can take).
	MaxEpisodeSteps int
	NumEnvs         int // default 8
	Steps           int // batched steps per check, default 600
}

func (c Case) withDefaults() Case {
	if c.NumEnvs == 0 {
		c.NumEnvs = 8
	}
	if c.Steps == 0 {
		c.Steps = 600
	}
	return c
}

// Run runs every check of the suite on c.
func Run(t *testing.T, c Case) {
	c = c.withDefaults()
	for _, check := range []struct {
		name string
		run  func(*testing.T, Case)
	}{
		{"RandomSimulation", randomSimulation}, {"SameSeedSameTrajectory", sameSeedSameTrajectory},
		{"AutoresetModes", autoresetModes}, {"Float32MatchesUint8", float32MatchesUint8},
		{"HiddenInformation", hiddenInformation}, {"HiddenInformationInFeatures", hiddenInformationInFeatures},
		{"ViewsHideWhatSeatsCannotSee", viewsHideWhatSeatsCannotSee},
		{"IllegalActionsChangeNothing", illegalActionsChangeNothing}, {"StateRoundTrip", stateRoundTrip},
		{"ForkCopiesEnvs", forkCopiesEnvs}, {"BadStatesChangeNothing", badStatesChangeNothing},
		{"DeterminizeKeepsTheView", determinizeKeepsTheView}, {"BotActionsAreLegalAndSeeded", botActionsAreLegalAndSeeded},
		{"BotTargetsAreTheSearchsVisits", botTargetsAreTheSearchsVisits},
		{"LayoutTilesTheObservation", layoutTilesTheObservation},
	} {
		t.Run(check.name, func(t *testing.T) { check.run(t, c) })
	}
}

func makeVector(t *testing.T, c Case, seed uint64, extra env.Options) *env.Vector {
	opts := env.Options{}
	for k, v := range c.Options {
		opts[k] = v
	}
	for k, v := range extra {
		opts[k] = v
	}
	v, err := env.Make(c.ID, c.NumEnvs, opts, seed, nil)
	require.NoError(t, err)
	require.ErrorIs(t, v.Step(make([]int32, v.Len())), env.ErrIllegalAction, "stepped before its first reset")
	require.NoError(t, v.Reset(nil, nil))
	return v
}

// players choose uniformly random legal actions from a vector's masks, with
// one stream per env so that env i's choices do not depend on the others.
type players []rng.Rand

func newPlayers(n int, seed uint64) players {
	p := make(players, n)
	for i := range p {
		p[i] = rng.New(rng.Derive(seed, uint64(i)))
	}
	return p
}

// choose fills actions from v's masks.
func (p players) choose(v *env.Vector, actions []int32) {
	na := v.Spec.NumActions
	for i := range actions {
		actions[i] = env.SampleLegal(v.Mask[i*na:(i+1)*na], &p[i])
	}
}

// play steps v with random legal actions, calling check after every step.
func play(t *testing.T, v *env.Vector, steps int, seed uint64, check func(step int, actions []int32)) {
	p := newPlayers(v.Len(), seed)
	actions := make([]int32, v.Len())
	for step := 0; step < steps; step++ {
		p.choose(v, actions)
		require.NoError(t, v.Step(actions))
		check(step, actions)
	}
}

func randomSimulation(t *testing.T, c Case) {
	v := makeVector(t, c, 1, nil)
	spec := v.Spec
	na, np := spec.NumActions, spec.Players
	require.Len(t, spec.ActionLabels, na)
	require.Equal(t, env.Uint8, spec.ObsDtype)
	require.Len(t, v.Obs, v.Len()*spec.ObsSize())
	require.Len(t, v.Mask, v.Len()*na)
	require.Len(t, v.Rewards, v.Len()*np)
	episodeSteps := make([]int, v.Len())
	ended := 0
	play(t, v, c.Steps, 2, func(step int, _ []int32) {
		for i := 0; i < v.Len(); i++ {
			done := v.Terminated[i] || v.Truncated[i]
			checkMask(t, v, i, done)
			checkRewards(t, v, i)
			episodeSteps[i]++
			require.LessOrEqual(t, episodeSteps[i], c.MaxEpisodeSteps+1, "env %d: episode too long", i)
			if done {
				episodeSteps[i], ended = -1, ended+1 // the reset step does not count
			}
			require.GreaterOrEqual(t, v.ToPlay[i], int32(0))
			require.Less(t, v.ToPlay[i], int32(np))
		}
	})
	require.Positive(t, ended, "no episode ended in %d steps: raise Steps", c.Steps)
}

// checkMask: values are 0/1, all zeros exactly when the episode is over, and
// (on a clone) exactly the masked actions step without error.
func checkMask(t *testing.T, v *env.Vector, i int, done bool) {
	na := v.Spec.NumActions
	row := v.Mask[i*na : (i+1)*na]
	legal := 0
	for _, m := range row {
		require.LessOrEqual(t, m, uint8(1))
		legal += int(m)
	}
	require.Equal(t, done, legal == 0, "env %d: mask empty %v but episode over %v", i, legal == 0, done)
	cloner, ok := v.Env(i).(env.Cloner)
	require.True(t, ok, "env does not implement env.Cloner")
	for a := 0; a < na; a++ {
		err := cloner.Clone().Step(a)
		if (err == nil) != (row[a] == 1) {
			t.Fatalf("env %d action %d (%s): mask %d, step error %v", i, a, v.Spec.ActionLabels[a], row[a], err)
		}
	}
}

// checkRewards: per-step rewards are within the declared range and sum to
// zero over the seats.
func checkRewards(t *testing.T, v *env.Vector, i int) {
	np := v.Spec.Players
	sum := float32(0)
	for _, r := range v.Rewards[i*np : (i+1)*np] {
		require.GreaterOrEqual(t, r, v.Spec.RewardRange[0])
		require.LessOrEqual(t, r, v.Spec.RewardRange[1])
		sum += r
	}
	require.InDelta(t, 0, sum, 1e-5, "env %d: rewards %v are not zero-sum", i, v.Rewards[i*np:(i+1)*np])
}

func sameSeedSameTrajectory(t *testing.T, c Case) {
	a, b := makeVector(t, c, 77, nil), makeVector(t, c, 77, nil)
	other := makeVector(t, c, 78, nil)
	require.Equal(t, a.Obs, b.Obs)
	require.NotEqual(t, a.Obs, other.Obs, "different seeds dealt the same games")
	play(t, a, c.Steps/2, 3, func(step int, actions []int32) {
		require.NoError(t, b.Step(actions))
		require.True(t, bytes.Equal(a.Obs, b.Obs), "step %d: observations differ", step)
		require.True(t, bytes.Equal(a.Mask, b.Mask), "step %d: masks differ", step)
		require.Equal(t, a.Rewards, b.Rewards, "step %d", step)
		require.Equal(t, a.Terminated, b.Terminated, "step %d", step)
		require.Equal(t, a.Truncated, b.Truncated, "step %d", step)
		require.Equal(t, a.ToPlay, b.ToPlay, "step %d", step)
	})
	// Explicit seeds reproduce a batch's deal.
	fresh := makeVector(t, c, 77, nil)
	require.NoError(t, b.Reset(nil, fresh.Seeds()))
	require.Equal(t, fresh.Obs, b.Obs)
}

func envObs(v *env.Vector, obs []uint8, i int) []uint8 {
	size := v.Spec.ObsSize()
	return obs[i*size : (i+1)*size]
}

// autoresetModes runs the three modes side by side on the same seeds and
// actions and checks that they tell the same story.
func autoresetModes(t *testing.T, c Case) {
	next := makeVector(t, c, 5, env.Options{"autoreset": "next_step"})
	same := makeVector(t, c, 5, env.Options{"autoreset": "same_step"})
	off := makeVector(t, c, 5, env.Options{"autoreset": "disabled"})
	require.Equal(t, env.NextStep, next.Spec.Autoreset)
	n := next.Len()
	// Each env is compared up to its first episode end and the reset after
	// it; from there next_step runs one step behind the others.
	ended := make([]bool, n)
	compared := make([]bool, n)
	firstObs := make([][]uint8, n) // same_step's first observation of the new episode
	checked := 0
	sameActions, offActions := make([]int32, n), make([]int32, n)
	samePlayers, offPlayers := newPlayers(n, 4), newPlayers(n, 4)
	play(t, next, c.Steps, 4, func(step int, actions []int32) {
		samePlayers.choose(same, sameActions)
		require.NoError(t, same.Step(sameActions), "step %d", step)
		offPlayers.choose(off, offActions)
		require.NoError(t, off.Step(offActions), "step %d", step)
		checkDisabledRefusesEnded(t, off)
		for i := 0; i < n; i++ {
			switch {
			case compared[i]:
			case ended[i]:
				checkNextStepReset(t, next, i, firstObs[i])
				compared[i] = true
				checked++
			default:
				ended[i] = compareModes(t, next, same, off, i)
				if ended[i] {
					firstObs[i] = append([]uint8(nil), envObs(same, same.Obs, i)...)
				}
			}
			if off.Terminated[i] || off.Truncated[i] {
				require.NoError(t, off.Reset([]int{i}, nil))
			}
		}
	})
	require.Positive(t, checked, "no autoreset happened: raise Steps")
}

// compareModes checks one env's step in the three modes and reports whether
// its episode ended.
func compareModes(t *testing.T, next, same, off *env.Vector, i int) bool {
	for _, v := range []*env.Vector{same, off} {
		require.Equal(t, next.Terminated[i], v.Terminated[i])
		require.Equal(t, next.Truncated[i], v.Truncated[i])
	}
	require.Equal(t, envObs(next, next.Obs, i), envObs(off, off.Obs, i))
	ended := next.Terminated[i] || next.Truncated[i]
	require.Equal(t, ended, same.Ended[i])
	if ended {
		require.Equal(t, envObs(next, next.Obs, i), envObs(same, same.FinalObs, i), "same_step keeps the final observation")
		return true
	}
	require.Equal(t, envObs(next, next.Obs, i), envObs(same, same.Obs, i))
	return false
}

// checkNextStepReset: the step after an episode's end shows the new episode,
// the one same_step showed at once, with zero rewards and no end flags.
func checkNextStepReset(t *testing.T, next *env.Vector, i int, first []uint8) {
	np := next.Spec.Players
	require.False(t, next.Terminated[i] || next.Truncated[i])
	require.Equal(t, make([]float32, np), next.Rewards[i*np:(i+1)*np])
	require.Equal(t, first, envObs(next, next.Obs, i), "next_step and same_step deal the same next episode")
}

func checkDisabledRefusesEnded(t *testing.T, off *env.Vector) {
	for i := 0; i < off.Len(); i++ {
		if off.Terminated[i] || off.Truncated[i] {
			actions := make([]int32, off.Len())
			err := off.Step(actions)
			require.ErrorIs(t, err, env.ErrIllegalAction, "a disabled env must be reset after its end")
			return
		}
	}
}

func float32MatchesUint8(t *testing.T, c Case) {
	u := makeVector(t, c, 9, nil)
	f := makeVector(t, c, 9, env.Options{"obs_dtype": "float32"})
	require.Equal(t, env.Float32, f.Spec.ObsDtype)
	play(t, u, 50, 5, func(step int, actions []int32) {
		require.NoError(t, f.Step(actions))
		for k, x := range u.Obs {
			require.Equal(t, float32(x), f.ObsF32[k])
		}
	})
}

// hiddenInformation: for every seat, redealing what that seat cannot see
// leaves its view byte-identical, and does redeal something; the seat to
// play's view is the observation served.
func hiddenInformation(t *testing.T, c Case) { hiddenInformationWith(t, c, nil) }

// hiddenInformationInFeatures is hiddenInformation with the block of
// derived values on (option features: derived), in envs that have one: it
// is worked out from what the seat sees and must hide what that hides.
func hiddenInformationInFeatures(t *testing.T, c Case) {
	if !hasFeatures(t, c) {
		t.Skip("the env has no features block")
	}
	hiddenInformationWith(t, c, env.Options{"features": "derived"})
}

func hiddenInformationWith(t *testing.T, c Case, extra env.Options) {
	v := makeVector(t, c, 11, extra)
	size := v.Spec.ObsSize()
	changed := 0
	play(t, v, c.Steps/4, 6, func(step int, _ []int32) {
		for i := 0; i < v.Len(); i++ {
			e := v.Env(i)
			view := make([]uint8, size)
			e.ObserveSeat(e.ToPlay(), view)
			require.Equal(t, envObs(v, v.Obs, i), view, "step %d env %d: ObserveSeat(ToPlay) is Observe", step, i)
			for seat := 0; seat < v.Spec.Players; seat++ {
				if resampledView(t, e, seat, uint64(step*1000+i), view) {
					changed++
				}
			}
		}
	})
	require.Positive(t, changed, "ResampleSeat never changed any hidden information")
}

// resampledView checks seat's view of a clone of e whose hidden information
// (for seat) was redealt against e's; it reports whether anything changed.
func resampledView(t *testing.T, e env.Env, seat int, seed uint64, view []uint8) bool {
	clone := e.(env.Cloner).Clone()
	resampler, ok := clone.(env.Resampler)
	require.True(t, ok, "env does not implement env.Resampler")
	resampler.ResampleSeat(seat, seed)
	e.ObserveSeat(seat, view)
	got := make([]uint8, len(view))
	clone.ObserveSeat(seat, got)
	require.Equal(t, view, got, "seat %d's view depends on what it cannot see", seat)
	return fmt.Sprint(clone) != fmt.Sprint(e)
}

func illegalActionsChangeNothing(t *testing.T, c Case) {
	v := makeVector(t, c, 13, nil)
	na := v.Spec.NumActions
	before := append([]uint8(nil), v.Obs...)
	actions := make([]int32, v.Len())
	newPlayers(v.Len(), 1).choose(v, actions)
	for a := 0; a < na; a++ {
		if v.Mask[a] == 0 {
			actions[0] = int32(a)
			break
		}
	}
	actions[v.Len()-1] = int32(na)
	err := v.Step(actions)
	var ae *env.ActionError
	require.ErrorAs(t, err, &ae)
	require.Contains(t, ae.Envs, v.Len()-1)
	require.Equal(t, before, v.Obs, "a refused batch changed observations")
	require.ErrorIs(t, v.Step(actions[:1]), env.ErrBadShape)
}
