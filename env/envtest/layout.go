package envtest

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/splendor-rl/splendor/env"
	"github.com/splendor-rl/splendor/env/turnbased"
	"github.com/splendor-rl/splendor/internal/rng"
	"github.com/stretchr/testify/require"
)

// layoutTilesTheObservation: the spec's blocks, with and without the
// features block, have unique names, a field name for every value of a
// row, and cover every value of one seat's observation exactly once.
func layoutTilesTheObservation(t *testing.T, c Case) {
	checkTiling(t, makeVector(t, c, 1, nil).Spec)
	if hasFeatures(t, c) {
		checkTiling(t, makeVector(t, c, 1, env.Options{"features": "derived"}).Spec)
	}
}

func checkTiling(t *testing.T, spec env.Spec) {
	size := spec.ObsShape[len(spec.ObsShape)-1]
	owner := make([]string, size)
	names := map[string]bool{}
	for _, b := range spec.Layout {
		require.False(t, names[b.Name], "two blocks are called %s", b.Name)
		names[b.Name] = true
		require.Len(t, b.Strides, len(b.Shape), b.Name)
		require.Equal(t, len(b.Fields), b.Shape[len(b.Shape)-1], "%s: a name per field", b.Name)
		for _, i := range b.Indices() {
			require.True(t, i >= 0 && i < size, "%s: index %d outside the observation (%d)", b.Name, i, size)
			require.Empty(t, owner[i], "index %d is in %s and %s", i, owner[i], b.Name)
			owner[i] = b.Name
		}
	}
	for i, o := range owner {
		require.NotEmpty(t, o, "index %d of %d is in no block", i, size)
	}
}

// Value is the observation's value of block's field in the row at index
// (Block.At), failing the test when the layout has no such value.
func Value(t *testing.T, spec *env.Spec, obs []uint8, block, field string, index ...int) uint8 {
	b, ok := spec.Block(block)
	require.True(t, ok, "no block %s", block)
	at := b.At(field, index...)
	require.GreaterOrEqual(t, at, 0, "%s has no %s at %v", block, field, index)
	return obs[at]
}

func hasFeatures(t *testing.T, c Case) bool {
	options, err := env.Describe(c.ID)
	require.NoError(t, err)
	return slices.ContainsFunc(options, func(o env.OptionSpec) bool { return o.Name == "features" })
}

// LayoutRows are the rows of a spec page's layout table for the blocks of
// id made with opts: | `name` | offset | shape | strides | fields |.
func LayoutRows(t *testing.T, id string, opts env.Options) []string {
	v, err := env.Make(id, 1, opts, 0, nil)
	require.NoError(t, err)
	rows := make([]string, len(v.Spec.Layout))
	for i, b := range v.Spec.Layout {
		rows[i] = fmt.Sprintf("| `%s` | %d | `%v` | `%v` | %s |", b.Name, b.Offset, b.Shape, b.Strides,
			strings.Join(b.Fields, " "))
	}
	return rows
}

// EveryView plays games random games of g made with opts and calls check
// with every seat's view of every position (the spec's layout names its
// values) and the engine's state, for a game's tests of its layout.
func EveryView[S any, G turnbased.Rules[S]](t *testing.T, g *turnbased.Game[S, G], opts env.Options, games int,
	check func(spec *env.Spec, obs []uint8, s *S, me int)) {
	v, err := env.Make(g.ID, 1, opts, 0, nil)
	require.NoError(t, err)
	spec := &v.Spec
	e := NewEnv(t, g, opts)
	r := rng.New(5)
	obs, mask := make([]uint8, spec.ObsSize()), make([]uint8, spec.NumActions)
	for game := range uint64(games) {
		e.Reset(game)
		for !e.Done() {
			s := e.State()
			for me := range spec.Players {
				e.ObserveSeat(me, obs)
				check(spec, obs, &s, me)
			}
			e.Mask(mask)
			require.NoError(t, e.Step(int(env.SampleLegal(mask, &r))))
		}
	}
}

// RequireRow checks the row of block at index against want (field →
// value; the fields it does not name are not checked), or, with want nil,
// that the row is empty: its "present" field is 0.
func RequireRow(t *testing.T, spec *env.Spec, obs []uint8, block string, want map[string]uint8, index ...int) {
	if want == nil {
		want = map[string]uint8{"present": 0}
	}
	for field, v := range want {
		require.Equal(t, v, Value(t, spec, obs, block, field, index...), "%s %v: %s", block, index, field)
	}
}
