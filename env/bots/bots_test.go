package bots_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/splendor-rl/splendor/env/bots"
	"github.com/splendor-rl/splendor/internal/rng"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// nim: two seats take 1 to 3 stones in turn; who takes the last one wins.
// Leaving a multiple of 4 wins, so the right move is known everywhere.
type nim struct{ stones, seat, winner int }

func (g *nim) ToPlay() int { return g.seat }
func (g *nim) Over() bool  { return g.stones == 0 }
func (g *nim) LegalSet() bots.Actions {
	return bots.Actions{1<<min(3, g.stones) - 1} // action i takes i+1 stones
}
func (g *nim) Apply(action int) error {
	g.stones -= action + 1
	if g.stones == 0 {
		g.winner = g.seat
	}
	g.seat = 1 - g.seat
	return nil
}
func (g *nim) Greedy(r *rng.Rand) int       { return bots.RandomAction(g, r) }
func (g *nim) Redeal(seat int, r *rng.Rand) {}
func (g *nim) Winners() uint8               { return 1 << g.winner }
func (g *nim) Seats() int                   { return 2 }

var nimBots bots.Bots[nim, *nim]

// parse is bots.Parse for a name the test knows is good.
func parse(t *testing.T, name string) bots.Spec {
	spec, err := bots.Parse(name)
	require.NoError(t, err)
	return spec
}

func TestMCTSFindsTheWinningTakeAtNim(t *testing.T) {
	spec := parse(t, "mcts:iterations=3000,rollout=random")
	for stones := 5; stones <= 11; stones++ {
		if stones%4 == 0 {
			continue // a lost position: every take loses
		}
		r := rng.New(uint64(stones))
		g := nim{stones: stones}
		assert.Equal(t, stones%4-1, nimBots.Act(spec, &r, &g), "%d stones: take %d", stones, stones%4)
		assert.Equal(t, nim{stones: stones}, g, "the search changed the game")
	}
}

func TestMCTSIsReproducibleFromItsStream(t *testing.T) {
	spec := parse(t, "mcts:50")
	for seed := uint64(0); seed < 20; seed++ {
		r1, r2 := rng.New(seed), rng.New(seed)
		g := nim{stones: 8} // every take loses: the choice is noise, a pure function of the stream
		assert.Equal(t, nimBots.Act(spec, &r1, &g), nimBots.Act(spec, &r2, &g))
		assert.Equal(t, r1, r2, "the bot's stream moved on differently")
	}
}

// die: seat 0 guesses the face of a three-sided die it cannot see (a win
// if right, a loss if wrong) or stays safe (a shared win: half of one).
// Searching the real die would always guess right; searching deals of what
// seat 0 can see, a guess is worth a third and staying is right.
type die struct {
	face, winners uint8
	over          bool
}

const stay = 3 // actions 0–2 guess that face

func (g *die) ToPlay() int                  { return 0 }
func (g *die) Over() bool                   { return g.over }
func (g *die) LegalSet() bots.Actions       { return bots.Actions{0b1111} }
func (g *die) Greedy(r *rng.Rand) int       { return stay }
func (g *die) Redeal(seat int, r *rng.Rand) { g.face = uint8(r.Intn(3)) }
func (g *die) Winners() uint8               { return g.winners }
func (g *die) Seats() int                   { return 2 }
func (g *die) Apply(action int) error {
	g.over = true
	switch {
	case action == stay:
		g.winners = 0b11
	case action == int(g.face):
		g.winners = 0b01
	default:
		g.winners = 0b10
	}
	return nil
}

func TestMCTSSearchesOnlyWhatTheSeatCanSee(t *testing.T) {
	var dieBots bots.Bots[die, *die]
	spec := parse(t, "mcts:2000")
	for seed := uint64(0); seed < 10; seed++ {
		r := rng.New(seed)
		assert.Equal(t, stay, dieBots.Act(spec, &r, &die{face: uint8(seed % 3)}))
	}
}

func TestMCTSAllocatesNothingOnceWarm(t *testing.T) {
	spec := parse(t, "mcts:200")
	r := rng.New(1)
	g := nim{stones: 21}
	nimBots.Act(spec, &r, &g)
	assert.Zero(t, testing.AllocsPerRun(20, func() { nimBots.Act(spec, &r, &g) }))
}

func TestParse(t *testing.T) {
	for name, want := range map[string]bots.Spec{
		"random": {Kind: bots.Random},
		"greedy": {Kind: bots.Greedy},
		"mcts":   {Kind: bots.MCTS, Search: bots.DefaultSettings},
		"mcts:800": {Kind: bots.MCTS, Search: bots.Settings{Iterations: 800,
			Exploration: bots.DefaultSettings.Exploration, Rollout: bots.DefaultSettings.Rollout}},
		"mcts:rollout=random,exploration=1.5,iterations=10": {Kind: bots.MCTS,
			Search: bots.Settings{Iterations: 10, Exploration: 1.5, Rollout: bots.Random}},
		"baseline":                        {Kind: bots.Baseline},
		"baseline+search:1":               {Kind: bots.Baseline, Simulations: 1},
		"baseline+search:32768":           {Kind: bots.Baseline, Simulations: bots.MaxSimulations},
		"baseline+search:8,playouts=0.5":  {Kind: bots.Baseline, Simulations: 8, Playouts: 50},
		"baseline+search:8,playouts=0.07": {Kind: bots.Baseline, Simulations: 8, Playouts: 7},
		"baseline+search:8,playouts=1":    {Kind: bots.Baseline, Simulations: 8, Playouts: 100},
		"baseline+search:8,playouts=0":    {Kind: bots.Baseline, Simulations: 8},
		"baseline+search:8,exploration=2": {Kind: bots.Baseline, Simulations: 8, Search: bots.Settings{Exploration: 2}},
		"baseline+search:8,exploration=0.5,playouts=0.25": {Kind: bots.Baseline, Simulations: 8, Playouts: 25,
			Search: bots.Settings{Exploration: 0.5}},
		"baseline+search:8,playouts=1,exploration=100": {Kind: bots.Baseline, Simulations: 8, Playouts: 100,
			Search: bots.Settings{Exploration: 100}},
		"baseline+search:8,fpu=0":    {Kind: bots.Baseline, Simulations: 8, FirstPlay: 1},
		"baseline+search:8,fpu=0.25": {Kind: bots.Baseline, Simulations: 8, FirstPlay: 26},
		"baseline+search:8,fpu=2,exploration=2.5,playouts=0.5": {Kind: bots.Baseline, Simulations: 8, FirstPlay: 201,
			Playouts: 50, Search: bots.Settings{Exploration: 2.5}},
		"baseline+search:8,policy_temp=1.4":  {Kind: bots.Baseline, Simulations: 8, PolicyTemp: 140},
		"baseline+search:8,policy_temp=0.01": {Kind: bots.Baseline, Simulations: 8, PolicyTemp: 1},
		"baseline+search:8,policy_temp=2.5,fpu=0,exploration=2.5,playouts=0.5": {Kind: bots.Baseline,
			Simulations: 8, PolicyTemp: 250, FirstPlay: 1, Playouts: 50, Search: bots.Settings{Exploration: 2.5}},
		"gumbel":     {Kind: bots.GuidedGumbel, Simulations: int32(bots.PlayoutGuided.Simulations)},
		"puct:1":     {Kind: bots.GuidedPUCT, Simulations: 1},
		"puct:32768": {Kind: bots.GuidedPUCT, Simulations: bots.MaxSimulations},
	} {
		spec, err := bots.Parse(name)
		require.NoError(t, err, name)
		assert.Equal(t, want, spec, name)
	}
	for _, name := range []string{"", "Greedy", "mcts:", "mcts:0", "mcts:100001", "mcts:-5", "greedy:5",
		"mcts:iterations=ten", "mcts:exploration=-1", "mcts:exploration=nan", "mcts:rollout=mcts",
		"mcts:depth=3", "mcts:iterations=10,,", "baseline:5", "baseline+search", "baseline+search:",
		"baseline+search:0", "baseline+search:32769", "baseline+search:x", "baseline+mcts:5",
		"baseline+search:8,playouts=", "baseline+search:8,playouts=1.5", "baseline+search:8,playouts=-0.5",
		"baseline+search:8,playouts=0.333", "baseline+search:8,playouts=nan", "baseline+search:8,playout=0.5",
		"baseline+search:8,playouts=0.5,playouts=0.5", "baseline,playouts=0.5",
		"baseline+search:8,exploration=0", "baseline+search:8,exploration=-1", "baseline+search:8,exploration=101",
		"baseline+search:8,exploration=nan", "baseline+search:8,exploration=", "baseline+search:8,exploration",
		"baseline+search:8,exploration=2,exploration=2", "baseline+search:8,exploration=2,", "baseline,exploration=2",
		"baseline+search:8,iterations=8", "baseline+search:exploration=2",
		"baseline+search:8,fpu=", "baseline+search:8,fpu=-0.1", "baseline+search:8,fpu=2.01", "baseline+search:8,fpu=nan",
		"baseline+search:8,fpu=0.333", "baseline+search:8,fpu=0,fpu=0", "baseline,fpu=0", "baseline+search:8,fpu",
		"baseline+search:8,policy_temp=0", "baseline+search:8,policy_temp=2.51", "baseline+search:8,policy_temp=-1",
		"baseline+search:8,policy_temp=nan", "baseline+search:8,policy_temp=", "baseline+search:8,policy_temp=1.234",
		"baseline+search:8,policy_temp=1,policy_temp=1", "baseline,policy_temp=1", "baseline+search:8,policy_temp",
		"baseline+search:8,temperature=1.4", "baseline+search:8,policy_temp=1,fpu=0,policy_temp=2",
		"gumbel:", "gumbel:0", "puct:32769", "puct:iterations=10", "PUCT", "gumbel+search:5"} {
		_, err := bots.Parse(name)
		assert.ErrorIs(t, err, bots.ErrBadBot, "%q", name)
	}
}

// A search that plays its leaves out beside a network's evaluation counts
// twice against max_search_iterations; one on playouts alone, once.
func TestGuidedCostCountsPlayoutsBesideEvaluations(t *testing.T) {
	for name, want := range map[string]int{"mcts:800": 800, "baseline": 0, "baseline+search:64": 64,
		"baseline+search:64,playouts=0.25": 128, "puct:64": 64} {
		assert.Equal(t, want, parse(t, name).Cost(), name)
	}
	set := bots.DefaultGuided
	assert.Equal(t, set.Simulations, set.Cost())
	set.PlayoutWeight = 0.5
	assert.Equal(t, 2*set.Simulations, set.Cost())
	assert.Equal(t, bots.PlayoutGuided.Simulations, bots.PlayoutGuided.Cost())
}

// A gumbel or puct bot's search is PlayoutGuided with its selection and
// simulations; no other bot has one.
func TestGuidedBotsSettings(t *testing.T) {
	set, ok := parse(t, "puct:300").Guided()
	require.True(t, ok)
	want := bots.PlayoutGuided
	want.Algorithm, want.Simulations = bots.PUCT, 300
	assert.Equal(t, want, set)
	set, ok = parse(t, "gumbel").Guided()
	require.True(t, ok)
	assert.Equal(t, bots.PlayoutGuided, set)
	for _, name := range []string{"mcts:300", "baseline+search:300", "greedy"} {
		_, ok := parse(t, name).Guided()
		assert.False(t, ok, name)
	}
}

func TestMCTSTargetsAreItsVisitsAndValue(t *testing.T) {
	spec := parse(t, "mcts:iterations=2000,rollout=random")
	for _, stones := range []int{2, 5, 6, 7, 8} {
		r1, r2, r3 := rng.New(uint64(stones)), rng.New(uint64(stones)), rng.New(uint64(stones))
		g := nim{stones: stones}
		policy, again, values, valuesAgain := make([]float32, 3), make([]float32, 3), make([]float32, 2), make([]float32, 2)
		action := nimBots.Targets(spec.Search, &r1, &g, nil, bots.Targets{Policy: policy, Values: values})
		actionAgain := nimBots.Targets(spec.Search, &r2, &g, nil, bots.Targets{Policy: again, Values: valuesAgain})
		assert.Equal(t, nimBots.Act(spec, &r3, &g), action, "%d stones: targets changed the bot's move", stones)
		assert.Equal(t, policy, again, "%d stones: same stream, other policy", stones)
		assert.Equal(t, []any{action, values}, []any{actionAgain, valuesAgain})
		assert.InDelta(t, -values[0], values[1], 1e-6, "%d stones: two seats, one winner", stones)
		assert.InDelta(t, 1, policy[0]+policy[1]+policy[2], 1e-6, "%d stones: %v", stones, policy)
		assert.Equal(t, slices.Max(policy), policy[action], "%d stones: %v, played %d", stones, policy, action)
		if stones == 2 {
			assert.Zero(t, policy[2], "taking 3 of 2 stones is illegal")
		}
		if stones%4 == 0 {
			assert.Less(t, values[0], float32(0), "%d stones is lost", stones)
		} else {
			assert.Greater(t, values[0], float32(0.2), "%d stones is won", stones)
		}
	}
}

func TestMCTSTargetsSearchAForcedMove(t *testing.T) {
	r := rng.New(1)
	policy, values := []float32{0.5, 0.5, 0.5}, []float32{0, 0}
	action := nimBots.Targets(parse(t, "mcts:50").Search, &r, &nim{stones: 1}, nil, bots.Targets{Policy: policy, Values: values})
	assert.Equal(t, 0, action)
	assert.Equal(t, []float32{1, 0, 0}, policy)
	assert.Equal(t, []float32{1, -1}, values, "taking the last stone wins")
}

// A named edition is a baseline bot of its own network: Parse knows only
// the editions loaded, and SetEditions refuses names that are not names.
func TestEditionsNameBaselineNetworks(t *testing.T) {
	t.Cleanup(func() { _, _ = bots.SetEditions(nil) })
	_, err := bots.Parse("baseline@2026-11-26")
	require.ErrorIs(t, err, bots.ErrBadBot)
	index, err := bots.SetEditions([]string{"long-run", "2026-11-26", "long-run"})
	require.NoError(t, err)
	assert.Equal(t, map[string]uint8{"2026-11-26": 1, "long-run": 2}, index)
	assert.Equal(t, []string{"2026-11-26", "long-run"}, bots.Editions())
	for name, want := range map[string]bots.Spec{
		"baseline@2026-11-26":           {Kind: bots.Baseline, Edition: 1},
		"baseline@long-run+search:64":   {Kind: bots.Baseline, Edition: 2, Simulations: 64},
		"baseline+search:64":            {Kind: bots.Baseline, Simulations: 64},
		"baseline@2026-11-26+search:16": {Kind: bots.Baseline, Edition: 1, Simulations: 16},
	} {
		spec, err := bots.Parse(name)
		require.NoError(t, err, name)
		assert.Equal(t, want, spec, name)
	}
	for _, name := range []string{"baseline@", "baseline@other", "baseline@long-run+search:0", "baseline@long-run+",
		"baselines@long-run", "baseline@long-run+search:x"} {
		_, err := bots.Parse(name)
		assert.ErrorIs(t, err, bots.ErrBadBot, name)
	}
	_, err = bots.SetEditions([]string{"Upper"})
	require.Error(t, err)
	many := make([]string, bots.MaxEditions+1)
	for i := range many {
		many[i] = fmt.Sprint("e", i)
	}
	_, err = bots.SetEditions(many)
	require.Error(t, err)
	assert.Equal(t, []string{"2026-11-26", "long-run"}, bots.Editions(), "a refused set changes nothing")
}
