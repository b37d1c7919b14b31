package bots_test

import (
	"slices"
	"testing"

	"github.com/splendor-rl/splendor/env/bots"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// observeNim is nim as a guided search's leaf shows it: (stones, seat).
func observeNim(obs []uint8, g *nim, me int) { obs[0], obs[1] = uint8(g.stones), uint8(me) }

var nimGuides bots.Guides[nim, *nim]

// evaluator answers a leaf from its observation and mask: its priors and
// its seat to play's value, or every seat's (bots.Search).
type evaluator func(obs, mask []uint8) (priors, values []float32)

// uniform knows nothing: equal priors, value 0.
func uniform(obs, mask []uint8) ([]float32, []float32) {
	priors := make([]float32, len(mask))
	for a, m := range mask {
		priors[a] = float32(m)
	}
	return priors, []float32{0}
}

// nimOracle knows nim: a position with a multiple of 4 stones is lost.
func nimOracle(obs, mask []uint8) ([]float32, []float32) {
	priors, _ := uniform(obs, mask)
	if obs[0]%4 == 0 {
		return priors, []float32{-1}
	}
	return priors, []float32{1}
}

type result struct {
	policy []float32
	action int
	value  float32   // the root's seat to play's
	values []float32 // every seat's, with runSeats
	leaves [][]uint8 // every leaf's observation, in order
}

// run drives a search to its end, answering its leaves with eval (nil: a
// playout search, which asks for none).
func run(t *testing.T, s bots.Search, eval evaluator, actions int) result {
	t.Helper()
	return runSeats(t, s, eval, actions, 0)
}

// runSeats is run, taking every one of seats seats' values from the
// search's result too (none with seats 0).
func runSeats(t *testing.T, s bots.Search, eval evaluator, actions, seats int) result {
	t.Helper()
	var r result
	obs, mask := make([]uint8, 3), make([]uint8, actions) // nim shows 2 values, kingmaker 3
	var asked [][2][]uint8
	for {
		switch s.Next(obs, mask) {
		case bots.Leaf:
			require.NotNil(t, eval, "a playout search asked for an evaluation")
			asked = append(asked, [2][]uint8{slices.Clone(obs), slices.Clone(mask)})
			continue
		case bots.Wait:
			require.NotEmpty(t, asked, "waiting with no leaf out")
			for _, leaf := range asked {
				s.Expand(eval(leaf[0], leaf[1]))
				r.leaves = append(r.leaves, leaf[0])
			}
			asked = asked[:0]
			continue
		}
		require.Empty(t, asked, "done with leaves out")
		values := make([]float32, max(seats, 1))
		r.policy = make([]float32, actions)
		r.action = s.Result(bots.Targets{Policy: r.policy, Values: values})
		r.value = values[0]
		if seats > 0 {
			r.values = values
		}
		s.Release()
		return r
	}
}

func settings(algorithm bots.Algorithm, simulations int) bots.GuidedSettings {
	set := bots.DefaultGuided
	set.Algorithm, set.Simulations = algorithm, simulations
	return set
}

var algorithms = map[string]bots.Algorithm{"gumbel": bots.Gumbel, "puct": bots.PUCT}

// A forced win a few plies deep is found from the games' outcomes alone
// (an evaluator that knows nothing, or greedy playouts), and deeper ones
// with an evaluator that knows the game.
func TestGuidedFindsTheWinningTakeAtNim(t *testing.T) {
	for name, algorithm := range algorithms {
		for _, c := range []struct {
			eval      evaluator
			most      int
			knowledge string
		}{{uniform, 7, "none"}, {nil, 7, "playouts"}, {nimOracle, 15, "oracle"}} {
			set := settings(algorithm, 200)
			set.Playouts = c.eval == nil
			for stones := 5; stones <= c.most; stones++ {
				if stones%4 == 0 {
					continue // a lost position: every take loses
				}
				g := nim{stones: stones}
				r := run(t, nimGuides.Start(set, &g, uint64(stones), nil, observeNim), c.eval, 3)
				assert.Equal(t, stones%4-1, r.action, "%s, %s, %d stones: %v", name, c.knowledge, stones, r.policy)
				if algorithm == bots.PUCT { // Gumbel's value is the mean over all its considered actions
					assert.Greater(t, r.value, float32(0), "%s, %s, %d stones: a won position", name, c.knowledge, stones)
				}
				assert.Equal(t, nim{stones: stones}, g, "the search changed the game")
			}
		}
	}
}

// nimLiar values every position the wrong way round.
func nimLiar(obs, mask []uint8) ([]float32, []float32) {
	priors, values := nimOracle(obs, mask)
	return priors, []float32{-values[0]}
}

// With PlayoutWeight 1 a leaf's value is its own playout's, whatever the
// evaluator says and however many leaves are out: a liar's search is the
// oracle's, and finds the win the playouts find; a weight below 1 hears
// the evaluator too.
func TestGuidedWeighsEachLeafsPlayoutIn(t *testing.T) {
	for name, algorithm := range algorithms {
		for _, leaves := range []int{1, 2} {
			set := settings(algorithm, 200)
			set.LeavesPerEnv, set.PlayoutWeight = leaves, 1
			for stones := 5; stones <= 7; stones++ {
				search := func(set bots.GuidedSettings, eval evaluator) result {
					g := nim{stones: stones}
					return run(t, nimGuides.Start(set, &g, uint64(stones), nil, observeNim), eval, 3)
				}
				liar := search(set, nimLiar)
				assert.Equal(t, search(set, nimOracle), liar, "%s, %d leaves, %d stones", name, leaves, stones)
				assert.Equal(t, stones%4-1, liar.action, "%s, %d leaves, %d stones: %v", name, leaves, stones, liar.policy)
				half := set
				half.PlayoutWeight = 0.5
				assert.NotEqual(t, search(half, nimOracle).value, search(half, nimLiar).value,
					"%s, %d leaves, %d stones", name, leaves, stones)
			}
		}
	}
}

func TestGuidedSearchesOnlyWhatTheSeatCanSee(t *testing.T) {
	var dieGuides bots.Guides[die, *die]
	for name, algorithm := range algorithms {
		for seed := uint64(0); seed < 6; seed++ {
			set := settings(algorithm, 400)
			set.Playouts = true
			r := run(t, dieGuides.Start(set, &die{face: uint8(seed % 3)}, seed, nil, nil), nil, 4)
			assert.Equal(t, stay, r.action, "%s, seed %d: %v", name, seed, r.policy)
		}
	}
}

func TestGuidedPolicyIsADistributionOverTheLegalActions(t *testing.T) {
	for name, algorithm := range algorithms {
		for _, stones := range []int{2, 7, 9} {
			g := nim{stones: stones}
			r := run(t, nimGuides.Start(settings(algorithm, 30), &g, 1, nil, observeNim), nimOracle, 3)
			assert.InDelta(t, 1, r.policy[0]+r.policy[1]+r.policy[2], 1e-5, "%s: %v", name, r.policy)
			if stones == 2 {
				assert.Zero(t, r.policy[2], "%s: taking 3 of 2 stones is illegal", name)
			}
			assert.Equal(t, stones%4-1, r.action, "%s, %d stones: %v", name, stones, r.policy)
			assert.LessOrEqual(t, len(r.leaves), 31, "%s: the root and at most one leaf per simulation", name)
		}
	}
}

// The same seed and evaluations give the same leaves and result; several
// leaves at once (virtual loss) too.
func TestGuidedIsAFunctionOfSeedAndEvaluations(t *testing.T) {
	for name, algorithm := range algorithms {
		for _, leaves := range []int{1, 4} {
			set := settings(algorithm, 60)
			set.LeavesPerEnv, set.DirichletFraction = leaves, 0.25
			g := nim{stones: 21}
			a := run(t, nimGuides.Start(set, &g, 9, nil, observeNim), nimOracle, 3)
			b := run(t, nimGuides.Start(set, &g, 9, nil, observeNim), nimOracle, 3)
			assert.Equal(t, a, b, "%s, %d leaves at once", name, leaves)
			assert.Equal(t, 0, a.action, "%s, %d leaves at once: leave 20", name, leaves)
		}
	}
}

// With several leaves at once, one Next round gives up to that many
// distinct leaves before waiting.
func TestGuidedGivesSeveralLeavesAtOnce(t *testing.T) {
	set := settings(bots.PUCT, 40)
	set.LeavesPerEnv = 3
	g := nim{stones: 21}
	s := nimGuides.Start(set, &g, 2, nil, observeNim)
	obs, mask := make([]uint8, 2), make([]uint8, 3)
	require.Equal(t, bots.Leaf, s.Next(obs, mask)) // the root
	require.Equal(t, bots.Wait, s.Next(obs, mask), "nothing to walk before the root is evaluated")
	s.Expand(nimOracle(obs, mask))
	var seen [][]uint8
	for s.Next(obs, mask) == bots.Leaf {
		seen = append(seen, slices.Clone(obs))
	}
	assert.Len(t, seen, 3)
	assert.NotEqual(t, seen[0], seen[1], "the virtual loss steers the second descent elsewhere")
	for range seen {
		s.Expand(nimOracle(obs, mask))
	}
	s.Release()
}

func TestGuidedAllocatesNothingOnceWarm(t *testing.T) {
	g := nim{stones: 21}
	policy, values, obs, mask := make([]float32, 3), make([]float32, 2), make([]uint8, 2), make([]uint8, 3)
	priors, value := []float32{1, 1, 1}, []float32{0}
	search := func() {
		s := nimGuides.Start(settings(bots.Gumbel, 100), &g, 1, nil, observeNim)
		for st := s.Next(obs, mask); st != bots.Done; st = s.Next(obs, mask) {
			if st == bots.Leaf {
				s.Expand(priors, value)
			}
		}
		s.Result(bots.Targets{Policy: policy, Values: values})
		s.Release()
	}
	search()
	assert.Zero(t, testing.AllocsPerRun(20, search))
}

// A search that plays out its own leaves answers each as soon as it asks
// for it, so a virtual loss must leave no trace: leaves_per_env changes
// nothing, and the root's value is a mean of outcomes, in [−1, 1].
func TestPlayoutSearchesGiveTheirVirtualLossBack(t *testing.T) {
	for name, algorithm := range algorithms {
		for _, stones := range []int{6, 13, 21} {
			one := settings(algorithm, 120)
			one.Playouts = true
			two := one
			two.LeavesPerEnv = 2
			g := nim{stones: stones}
			a := run(t, nimGuides.Start(one, &g, 4, nil, nil), nil, 3)
			b := run(t, nimGuides.Start(two, &g, 4, nil, nil), nil, 3)
			assert.Equal(t, a, b, "%s, %d stones", name, stones)
			assert.InDelta(t, 0, b.value, 1, "%s, %d stones", name, stones)
		}
	}
}

// A guided bot plays what its search finds (Play), and takes a forced move
// without searching unless targets are asked for.
func TestGuidedBotsPlayTheirSearchsChoice(t *testing.T) {
	for name, algorithm := range algorithms {
		set := settings(algorithm, 200)
		set.Playouts = true
		g := nim{stones: 7}
		action := nimGuides.Play(set, &g, 3, nil, bots.Targets{})
		assert.Equal(t, 2, action, "%s: take 3, leave 4", name)
		policy, values := make([]float32, 3), make([]float32, 2)
		action = nimGuides.Play(set, &g, 3, nil, bots.Targets{Policy: policy, Values: values})
		want := runSeats(t, nimGuides.Start(set, &g, 3, nil, nil), nil, 3, 2)
		assert.Equal(t, want, result{policy: policy, action: action, value: values[0], values: values}, name)
		assert.Equal(t, -values[0], values[1], "%s: two seats, zero-sum", name)

		forced := nim{stones: 1}
		values = []float32{0, 0}
		action = nimGuides.Play(set, &forced, 3, nil, bots.Targets{Values: values})
		assert.Equal(t, 0, action)
		assert.Equal(t, []float32{1, -1}, values, "%s: searched for its targets, a won position", name)
	}
}
