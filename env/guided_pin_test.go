package env_test

import (
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"math"
	"testing"

	"github.com/splendor-rl/splendor/env"
	"github.com/splendor-rl/splendor/env/bots"
	"github.com/stretchr/testify/require"
)

// pinnedEvaluations are uneven priors and values that each leaf's
// observation decides, so that a search's result depends on every leaf.
func pinnedEvaluations(b *env.GuidedBatch, na int) ([]float32, []float32) {
	priors := make([]float32, len(b.LeafMask))
	values := make([]float32, len(b.LeafEnvs))
	for j := range values {
		h := fnv.New64a()
		h.Write(b.LeafObs[j*b.ObsSize() : (j+1)*b.ObsSize()])
		x := h.Sum64()
		for a := range na {
			if b.LeafMask[j*na+a] == 1 {
				priors[j*na+a] = float32(1 + (x>>(a%48)+uint64(a)*7919)%13)
			}
		}
		values[j] = float32(x%181)/100 - 0.9
	}
	return priors, values
}

// searchDigest hashes the results of searches of every game's positions
// under one setting: policies, actions and values, bit for bit.
func searchDigest(t *testing.T, id string, opts env.Options, set bots.GuidedSettings) uint64 {
	v, err := env.Make(id, 6, opts, 11, nil)
	require.NoError(t, err)
	require.NoError(t, v.Reset(nil, nil))
	h := fnv.New64a()
	for move := range 4 { // positions from the deal on
		b, err := v.StartGuided(nil, set, uint64(move+1), nil)
		require.NoError(t, err)
		for !b.Done() {
			require.NoError(t, b.Evaluate(pinnedEvaluations(b, v.Spec.NumActions)))
		}
		for _, p := range b.Policy {
			binary.Write(h, binary.LittleEndian, math.Float32bits(p))
		}
		binary.Write(h, binary.LittleEndian, b.Action)
		binary.Write(h, binary.LittleEndian, b.Value)
		actions := append([]int32(nil), b.Action...)
		b.Close()
		require.NoError(t, v.Step(actions))
	}
	return h.Sum64()
}

// The guided search's results are pinned, bit for bit, for every selection
// rule and option: a change that only reshapes the code keeps them.
func TestGuidedSearchResultsArePinned(t *testing.T) {
	games := []struct {
		id   string
		opts env.Options
	}{{"splendor-v1", env.Options{"players": 2}}, {"splendor-v1", env.Options{"players": 4}}, {"splendor-duel-v1", nil}}
	type variant struct {
		name string
		edit func(*bots.GuidedSettings)
	}
	variants := []variant{
		{"gumbel", func(s *bots.GuidedSettings) {}},
		{"gumbel 3 leaves", func(s *bots.GuidedSettings) { s.LeavesPerEnv = 3 }},
		{"gumbel 4 considered, scale 0.1", func(s *bots.GuidedSettings) { s.MaxNumConsideredActions, s.ValueScale = 4, 0.1 }},
		{"puct", func(s *bots.GuidedSettings) { s.Algorithm = bots.PUCT }},
		{"puct 2 leaves, noise", func(s *bots.GuidedSettings) {
			s.Algorithm, s.LeavesPerEnv, s.DirichletFraction = bots.PUCT, 2, 0.25
		}},
		{"puct first play 0.25", func(s *bots.GuidedSettings) {
			s.Algorithm, s.FirstPlay, s.FPUReduction = bots.PUCT, true, 0.25
		}},
		{"gumbel playouts 2 leaves", func(s *bots.GuidedSettings) { s.Playouts, s.LeavesPerEnv = true, 2 }},
		{"puct playouts", func(s *bots.GuidedSettings) { s.Algorithm, s.Playouts, s.PbCInit = bots.PUCT, true, 5 }},
	}
	var got []string
	for _, g := range games {
		for _, vr := range variants {
			set := bots.DefaultGuided
			set.Simulations = 40
			vr.edit(&set)
			got = append(got, fmt.Sprintf("%s %v %s: %016x", g.id, g.opts, vr.name, searchDigest(t, g.id, g.opts, set)))
		}
	}
	require.Equal(t, pinnedDigests, got)
}

var pinnedDigests = []string{
	"splendor-v1 map[players:2] gumbel: f1b615c8e21d2118",
	"splendor-v1 map[players:2] gumbel 3 leaves: e4088846479b3f4f",
	"splendor-v1 map[players:2] gumbel 4 considered, scale 0.1: 13a1b5243ff92d98",
	"splendor-v1 map[players:2] puct: 9b013c2d7ba870ac",
	"splendor-v1 map[players:2] puct 2 leaves, noise: ddeb40463cbbac85",
	"splendor-v1 map[players:2] puct first play 0.25: 95bcae6f4b190462",
	"splendor-v1 map[players:2] gumbel playouts 2 leaves: a4f542bcc578fdd5",
	"splendor-v1 map[players:2] puct playouts: 464a6f5060d5e5d9",
	"splendor-v1 map[players:4] gumbel: bc3457394c60bed5",
	"splendor-v1 map[players:4] gumbel 3 leaves: 5b64047f6b558ecb",
	"splendor-v1 map[players:4] gumbel 4 considered, scale 0.1: 5897cc935ddb7c8b",
	"splendor-v1 map[players:4] puct: 86b3007b25aa1f36",
	"splendor-v1 map[players:4] puct 2 leaves, noise: eb01ded762367e16",
	"splendor-v1 map[players:4] puct first play 0.25: 7646a76cecccaadf",
	"splendor-v1 map[players:4] gumbel playouts 2 leaves: d59c3e6d290fbb50",
	"splendor-v1 map[players:4] puct playouts: b469e98cceb1d033",
	"splendor-duel-v1 map[] gumbel: b6925d26adedd379",
	"splendor-duel-v1 map[] gumbel 3 leaves: e07dd5e9f7019711",
	"splendor-duel-v1 map[] gumbel 4 considered, scale 0.1: 586cb0de1cd7deb7",
	"splendor-duel-v1 map[] puct: ebc3abbca6abbfa4",
	"splendor-duel-v1 map[] puct 2 leaves, noise: 89b08866aa4a8d4e",
	"splendor-duel-v1 map[] puct first play 0.25: c9ad9c3ccd85df00",
	"splendor-duel-v1 map[] gumbel playouts 2 leaves: 189ef5b3a6a546a3",
	"splendor-duel-v1 map[] puct playouts: 5615787658e1bbd6",
}
