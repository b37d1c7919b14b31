package nets_test

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/splendor-rl/splendor/env/nets"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fixture is one case of testdata/fixtures.json (written by make_fixture.py):
// a net saved by pvnet.save and torch's outputs on it.
type fixture struct {
	Name                         string
	Obs, Actions, Hidden, Layers int
	Env                          string
	Options                      map[string]any
	Observations, Masks          [][]int // JSON arrays: encoding/json reads a []uint8 from base64
	Logits, Values               [][]float64
	Argmax                       []int
}

// tolerance is how far float32 evaluation may stray from torch's float64
// one, relative to the value's size (or absolute, below 1).
const tolerance = 1e-4

func loadFixtures(t *testing.T) []fixture {
	b, err := os.ReadFile(filepath.Join("testdata", "fixtures.json"))
	require.NoError(t, err)
	var fixtures []fixture
	require.NoError(t, json.Unmarshal(b, &fixtures))
	require.Len(t, fixtures, 4)
	return fixtures
}

func (f fixture) load(t *testing.T) *nets.Net {
	n, err := nets.Load(filepath.Join("testdata", f.Name+".safetensors"))
	require.NoError(t, err)
	return n
}

func uint8s(xs []int) []uint8 {
	b := make([]uint8, len(xs))
	for i, x := range xs {
		b[i] = uint8(x)
	}
	return b
}

func TestLoadReadsSizesEnvAndOptions(t *testing.T) {
	for _, f := range loadFixtures(t) {
		n := f.load(t)
		assert.Equal(t, []int{f.Obs, f.Actions, f.Hidden, f.Layers}, []int{n.Obs(), n.Actions(), n.Hidden(), n.Layers()}, f.Name)
		assert.Equal(t, f.Env, n.Env, f.Name)
		assert.Equal(t, f.Options, n.Options, f.Name)
	}
}

func TestEvaluateMatchesTorch(t *testing.T) {
	for _, f := range loadFixtures(t) {
		e := f.load(t).NewEvaluator()
		logits, values := make([]float32, f.Actions), make([]float32, len(f.Values[0]))
		worst := 0.0
		for i, obs := range f.Observations {
			e.Evaluate(uint8s(obs), logits, values)
			for a, want := range f.Logits[i] {
				worst = max(worst, within(t, want, float64(logits[a]), fmt.Sprintf("%s obs %d logit %d", f.Name, i, a)))
			}
			for k, want := range f.Values[i] {
				worst = max(worst, within(t, want, float64(values[k]), fmt.Sprintf("%s obs %d value %d", f.Name, i, k)))
			}
		}
		t.Logf("%s: largest relative error %.1e", f.Name, worst)
	}
}

// within checks got against torch's want and returns the relative error.
func within(t *testing.T, want, got float64, what string) float64 {
	err := math.Abs(got-want) / max(1, math.Abs(want))
	assert.LessOrEqual(t, err, tolerance, "%s: got %v, torch %v", what, got, want)
	return err
}

func TestArgmaxMatchesTorch(t *testing.T) {
	for _, f := range loadFixtures(t) {
		e := f.load(t).NewEvaluator()
		for i, obs := range f.Observations {
			a := e.Argmax(uint8s(obs), uint8s(f.Masks[i]))
			require.True(t, a >= 0 && f.Masks[i][a] == 1, "%s obs %d: illegal action %d", f.Name, i, a)
			assert.Equal(t, f.Argmax[i], a, "%s obs %d", f.Name, i)
		}
	}
}
