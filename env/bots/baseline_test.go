package bots_test

import (
	"sync/atomic"
	"testing"

	"github.com/splendor-rl/splendor/env/bots"
	"github.com/splendor-rl/splendor/internal/rng"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// nimNet is a network of nim (observation: stones, seat; three takes):
// logits from a table by stones, and a value; it counts its evaluations.
type nimNet struct {
	logits func(stones int) [3]float32
	value  func(stones int) float32
	calls  *atomic.Int64
}

func (n nimNet) Evaluate(obs []uint8, logits, values []float32) {
	n.calls.Add(1)
	l := n.logits(int(obs[0]))
	copy(logits, l[:])
	values[0] = n.value(int(obs[0]))
}

func (n nimNet) network() bots.Network {
	return bots.Network{Obs: 2, Actions: 3, Values: 1, NewEvaluator: func() bots.Evaluator { return n }}
}

// takeMost prefers taking more stones: a wrong policy at nim.
func takeMost(int) [3]float32 { return [3]float32{0, 1, 2} }

// knowsNim values a position as nim's rule does (a multiple of 4 is lost)
// but has no opinion on the takes.
func knowsNim(stones int) float32 {
	if stones%4 == 0 {
		return -1
	}
	return 1
}

func baseline(t *testing.T, name string, net nimNet) (bots.Spec, *bots.NetBot[nim, *nim]) {
	spec, err := bots.Parse(name)
	require.NoError(t, err)
	require.Equal(t, bots.Baseline, spec.Kind)
	return spec, bots.NewNetBot(net.network(), observeNim, &nimGuides)
}

func TestBaselinePlaysTheNetworksBestLegalAction(t *testing.T) {
	net := nimNet{logits: takeMost, value: knowsNim, calls: new(atomic.Int64)}
	spec, b := baseline(t, "baseline", net)
	r := rng.New(1)
	for stones, want := range map[int]int{1: 0, 2: 1, 3: 2, 9: 2} { // the largest legal take
		action := b.Act(spec, &r, &nim{stones: stones}, nil, bots.Targets{})
		assert.Equal(t, want, action, "%d stones", stones)
	}
	tie := nimNet{logits: func(int) [3]float32 { return [3]float32{1, 3, 3} }, value: knowsNim, calls: new(atomic.Int64)}
	spec, b = baseline(t, "baseline", tie)
	action := b.Act(spec, &r, &nim{stones: 9}, nil, bots.Targets{})
	assert.Equal(t, 1, action, "a tie goes to the lower index")
}

// flat has no opinion on the takes: its argmax always takes one stone.
func flat(int) [3]float32 { return [3]float32{} }

// The search finds with the network's values what its policy does not
// know, one evaluation per simulation at most.
func TestBaselineSearchFindsTheWinningTakeAtNim(t *testing.T) {
	net := nimNet{logits: flat, value: knowsNim, calls: new(atomic.Int64)}
	spec, b := baseline(t, "baseline+search:200", net)
	for stones := 5; stones <= 15; stones++ {
		if stones%4 == 0 {
			continue
		}
		r := rng.New(uint64(stones))
		net.calls.Store(0)
		g := nim{stones: stones}
		action := b.Act(spec, &r, &g, nil, bots.Targets{})
		assert.Equal(t, stones%4-1, action, "%d stones", stones)
		assert.Equal(t, nim{stones: stones}, g, "the search changed the game")
		assert.LessOrEqual(t, net.calls.Load(), int64(201), "%d stones: more evaluations than simulations and the root", stones)
		assert.Greater(t, net.calls.Load(), int64(1), "%d stones: no search", stones)
	}
}

// liesAboutNim values every position the wrong way round.
func liesAboutNim(stones int) float32 { return -knowsNim(stones) }

// A network's values mislead its search; the outcome of each leaf's
// playout, weighed in, corrects them (not at 9 stones, too deep for 200
// random playouts to see).
func TestBaselineSearchWeighsPlayoutsIn(t *testing.T) {
	net := nimNet{logits: flat, value: liesAboutNim, calls: new(atomic.Int64)}
	for _, stones := range []int{5, 6, 7, 10, 11} {
		take := func(name string) int {
			spec, b := baseline(t, name, net)
			r := rng.New(uint64(stones))
			g := nim{stones: stones}
			action := b.Act(spec, &r, &g, nil, bots.Targets{})
			assert.Equal(t, nim{stones: stones}, g, "the search changed the game")
			return action
		}
		assert.NotEqual(t, stones%4-1, take("baseline+search:200"),
			"%d stones: the lies did not mislead the search alone", stones)
		assert.Equal(t, stones%4-1, take("baseline+search:200,playouts=1"),
			"%d stones: the playouts did not correct the lies", stones)
	}
}

func TestBaselineSearchIsAFunctionOfItsStream(t *testing.T) {
	noisy := func(stones int) [3]float32 { return [3]float32{0.3, 0.2, 0.1} }
	net := nimNet{logits: noisy, value: func(int) float32 { return 0 }, calls: new(atomic.Int64)}
	spec, b := baseline(t, "baseline+search:64", net)
	play := func(seed uint64) []float32 {
		r := rng.New(seed)
		policy := make([]float32, 3)
		b.Act(spec, &r, &nim{stones: 21}, nil, bots.Targets{Policy: policy})
		return policy
	}
	assert.Equal(t, play(5), play(5))
	assert.InDelta(t, 1, play(5)[0]+play(5)[1]+play(5)[2], 1e-5)
}

func TestBaselineSearchStopsWhenAsked(t *testing.T) {
	net := nimNet{logits: takeMost, value: knowsNim, calls: new(atomic.Int64)}
	spec, b := baseline(t, "baseline+search:16384", net)
	var stop atomic.Bool
	stop.Store(true)
	r := rng.New(1)
	action := b.Act(spec, &r, &nim{stones: 21}, &stop, bots.Targets{})
	assert.Contains(t, []int{0, 1, 2}, action)
	assert.Less(t, net.calls.Load(), int64(100), "a stopped search went on")
}

func TestBaselineAllocatesNothingOnceWarm(t *testing.T) {
	net := nimNet{logits: takeMost, value: knowsNim, calls: new(atomic.Int64)}
	for _, name := range []string{"baseline", "baseline+search:100", "baseline+search:100,playouts=0.5"} {
		spec, b := baseline(t, name, net)
		r := rng.New(1)
		g := nim{stones: 21}
		b.Act(spec, &r, &g, nil, bots.Targets{})
		assert.Zero(t, testing.AllocsPerRun(20, func() { b.Act(spec, &r, &g, nil, bots.Targets{}) }), name)
	}
}

// winningTake is the share of the root's visits that the search named
// goes to taking one of 21 stones, the winning take, with logits (over
// taking one, two, three) that favour another.
func winningTake(t *testing.T, name string, logits [3]float32) float32 {
	net := nimNet{logits: func(int) [3]float32 { return logits }, value: knowsNim, calls: new(atomic.Int64)}
	spec, b := baseline(t, name, net)
	r := rng.New(3)
	policy := make([]float32, 3)
	b.Act(spec, &r, &nim{stones: 21}, nil, bots.Targets{Policy: policy})
	return policy[0]
}

// ",exploration=C" is PUCT's pb_c_init: the more of it, the more visits go
// past the priors' favourite (a wrong take here) to the take the values
// find.
func TestBaselineSearchExploresAsAsked(t *testing.T) {
	risesWith(t, "baseline+search:64,exploration=0.2", "baseline+search:64", "baseline+search:64,exploration=5",
		"baseline+search:64,exploration=1.25")
}

// ",policy_temp=T" divides the network's logits by T before their
// softmax: the hotter, the flatter the priors, and the more visits go past
// their favourite to the take the values find.
func TestBaselineSearchTempersItsPriorsAsAsked(t *testing.T) {
	risesWith(t, "baseline+search:64,policy_temp=0.5", "baseline+search:64", "baseline+search:64,policy_temp=2",
		"baseline+search:64,policy_temp=1")
}

// risesWith checks that the searches named low, usual and high give the
// winning take, which the priors do not favour, ever more of their visits,
// and that same is usual by another name (its setting at the default).
func risesWith(t *testing.T, low, usual, high, same string) {
	right := func(name string) float32 { return winningTake(t, name, [3]float32{0, 0, 1}) }
	l, u, h := right(low), right(usual), right(high)
	assert.Less(t, l, u, low)
	assert.Less(t, u, h, high)
	assert.Equal(t, u, right(same), "%s is the default", same)
}

// ",fpu=R" values an unvisited take at its parent's value less R·√(the
// visited takes' share of the priors), not at the worst visited one: with
// priors on a losing take, whose visits value the parent low, the winning
// take is tried, where mctx's rule leaves it unvisited.
func TestBaselineSearchUrgesFirstPlayAsAsked(t *testing.T) {
	right := func(name string) float32 { return winningTake(t, name, [3]float32{0, 0, 2}) }
	usual := right("baseline+search:64")
	assert.Zero(t, usual, "mctx's rule: the winning take is never tried")
	assert.Positive(t, right("baseline+search:64,fpu=0"), "at the parent's value")
	assert.Positive(t, right("baseline+search:64,fpu=0.5"))
	assert.Equal(t, usual, right("baseline+search:64,fpu=2"), "a reduction of 2 floors every unvisited take")
}
