package bots_test

import (
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
func (g *nim) Legal(buf []int) []int {
	for take := 1; take <= min(3, g.stones); take++ {
		buf = append(buf, take-1) // action i takes i+1 stones
	}
	return buf
}
func (g *nim) Play(action int) {
	g.stones -= action + 1
	if g.stones == 0 {
		g.winner = g.seat
	}
	g.seat = 1 - g.seat
}
func (g *nim) Random(r *rng.Rand) int       { return r.Intn(min(3, g.stones)) }
func (g *nim) Greedy(r *rng.Rand) int       { return g.Random(r) }
func (g *nim) Redeal(seat int, r *rng.Rand) {}
func (g *nim) Outcome() bots.Outcome        { return bots.Shares(1<<g.winner, 2) }

var nimBots bots.Bots[nim, *nim]

func mcts(t *testing.T, name string) bots.Spec {
	spec, err := bots.Parse(name)
	require.NoError(t, err)
	return spec
}

func TestMCTSFindsTheWinningTakeAtNim(t *testing.T) {
	spec := mcts(t, "mcts:iterations=3000,rollout=random")
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
	spec := mcts(t, "mcts:50")
	for seed := uint64(0); seed < 20; seed++ {
		r1, r2 := rng.New(seed), rng.New(seed)
		g := nim{stones: 8} // every take loses: the choice is noise, a pure function of the stream
		assert.Equal(t, nimBots.Act(spec, &r1, &g), nimBots.Act(spec, &r2, &g))
		assert.Equal(t, r1, r2, "the bot's stream moved on differently")
	}
}

// coin: seat 0 guesses a coin it cannot see (win) or stays safe (0.6 of a
// win). Searching the real coin would always guess right; searching deals
// of what seat 0 can see, a guess is worth 0.5 and staying is right.
type coin struct {
	heads, over bool
	value       float32
}

const (
	guessHeads = iota
	guessTails
	stay
)

func (g *coin) ToPlay() int            { return 0 }
func (g *coin) Over() bool             { return g.over }
func (g *coin) Legal(buf []int) []int  { return append(buf, guessHeads, guessTails, stay) }
func (g *coin) Random(r *rng.Rand) int { return r.Intn(3) }
func (g *coin) Greedy(r *rng.Rand) int { return stay }
func (g *coin) Redeal(seat int, r *rng.Rand) {
	g.heads = r.Intn(2) == 0
}
func (g *coin) Play(action int) {
	g.over = true
	switch action {
	case stay:
		g.value = 0.6
	case guessHeads:
		g.value = b2f(g.heads)
	case guessTails:
		g.value = b2f(!g.heads)
	}
}
func (g *coin) Outcome() bots.Outcome { return bots.Outcome{g.value, 1 - g.value} }

func b2f(b bool) float32 {
	if b {
		return 1
	}
	return 0
}

func TestMCTSSearchesOnlyWhatTheSeatCanSee(t *testing.T) {
	var coinBots bots.Bots[coin, *coin]
	spec := mcts(t, "mcts:2000")
	for seed := uint64(0); seed < 10; seed++ {
		r := rng.New(seed)
		assert.Equal(t, stay, coinBots.Act(spec, &r, &coin{heads: seed%2 == 0}))
	}
}

func TestMCTSAllocatesNothingOnceWarm(t *testing.T) {
	spec := mcts(t, "mcts:200")
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
	} {
		spec, err := bots.Parse(name)
		require.NoError(t, err, name)
		assert.Equal(t, want, spec, name)
	}
	for _, name := range []string{"", "Greedy", "mcts:", "mcts:0", "mcts:100001", "mcts:-5", "greedy:5",
		"mcts:iterations=ten", "mcts:exploration=-1", "mcts:exploration=nan", "mcts:rollout=mcts",
		"mcts:depth=3", "mcts:iterations=10,,"} {
		_, err := bots.Parse(name)
		assert.ErrorIs(t, err, bots.ErrBadBot, "%q", name)
	}
}

func TestMCTSTargetsAreItsVisitsAndValue(t *testing.T) {
	spec := mcts(t, "mcts:iterations=2000,rollout=random")
	for _, stones := range []int{2, 5, 6, 7, 8} {
		r1, r2, r3 := rng.New(uint64(stones)), rng.New(uint64(stones)), rng.New(uint64(stones))
		g := nim{stones: stones}
		policy, again := make([]float32, 3), make([]float32, 3)
		action, share := nimBots.Targets(spec.Search, &r1, &g, nil, policy)
		actionAgain, shareAgain := nimBots.Targets(spec.Search, &r2, &g, nil, again)
		assert.Equal(t, nimBots.Act(spec, &r3, &g), action, "%d stones: targets changed the bot's move", stones)
		assert.Equal(t, policy, again, "%d stones: same stream, other policy", stones)
		assert.Equal(t, []any{action, share}, []any{actionAgain, shareAgain})
		assert.InDelta(t, 1, policy[0]+policy[1]+policy[2], 1e-6, "%d stones: %v", stones, policy)
		assert.Equal(t, slices.Max(policy), policy[action], "%d stones: %v, played %d", stones, policy, action)
		if stones == 2 {
			assert.Zero(t, policy[2], "taking 3 of 2 stones is illegal")
		}
		if stones%4 == 0 {
			assert.Less(t, share, float32(0.5), "%d stones is lost", stones)
		} else {
			assert.Greater(t, share, float32(0.6), "%d stones is won", stones)
		}
	}
}

func TestMCTSTargetsSearchAForcedMove(t *testing.T) {
	r := rng.New(1)
	policy := []float32{0.5, 0.5, 0.5}
	action, share := nimBots.Targets(mcts(t, "mcts:50").Search, &r, &nim{stones: 1}, nil, policy)
	assert.Equal(t, 0, action)
	assert.Equal(t, []float32{1, 0, 0}, policy)
	assert.Equal(t, float32(1), share, "taking the last stone wins")
}
