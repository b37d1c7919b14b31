package envtest

import (
	"testing"

	"github.com/splendor-rl/splendor/env"
	"github.com/splendor-rl/splendor/env/turnbased"
	"github.com/stretchr/testify/require"

	"github.com/splendor-rl/splendor/env/bots"
	"github.com/splendor-rl/splendor/internal/rng"
)

// BenchmarkBotDecision times bot (a name bots.Parse reads) deciding alone,
// on the benchmark's goroutine, at positions 30 greedy decisions into games
// dealt by deal: ns/op is the decision time; for a search, iterations/s is
// its rate.
func BenchmarkBotDecision[S any, G bots.Game[S]](b *testing.B, bot string, deal func(seed uint64) S) {
	spec, err := bots.Parse(bot)
	if err != nil {
		b.Fatal(err)
	}
	positions := make([]S, 16)
	for i := range positions {
		positions[i] = midgame[S, G](deal(uint64(i)), uint64(i), 30)
	}
	var players bots.Bots[S, G]
	r := rng.New(1)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		players.Act(spec, &r, &positions[i%len(positions)])
	}
	if spec.Kind == bots.MCTS {
		b.ReportMetric(float64(b.N*spec.Search.Iterations)/b.Elapsed().Seconds(), "iterations/s")
	}
}

// midgame plays greedy decisions from s, then on to the next position with
// a choice to make.
func midgame[S any, G bots.Game[S]](s S, seed uint64, decisions int) S {
	g := G(&s)
	r := rng.New(seed)
	for i := 0; !g.Over() && (i < decisions || len(bots.Legal(g, nil)) < 2); i++ {
		if err := g.Apply(g.Greedy(&r)); err != nil {
			panic(err)
		}
	}
	return s
}

// Bot is a built-in bot with its own stream, for tests that play whole
// games with the engine's state.
type Bot[S any, G bots.Game[S]] struct {
	spec    bots.Spec
	r       rng.Rand
	players bots.Bots[S, G]
}

// NewBot is the bot named kind (bots.Parse), drawing from seed; a bad name
// panics (a test's typo).
func NewBot[S any, G bots.Game[S]](kind string, seed uint64) *Bot[S, G] {
	spec, err := bots.Parse(kind)
	if err != nil {
		panic(err)
	}
	return &Bot[S, G]{spec: spec, r: rng.New(seed)}
}

// Act is the bot's choice in s.
func (b *Bot[S, G]) Act(s G) int { return b.players.Act(b.spec, &b.r, (*S)(s)) }

// NewEnv is one env of game g with opts, for a game package's own tests.
func NewEnv[S any, G turnbased.Rules[S]](t *testing.T, g *turnbased.Game[S, G], opts env.Options) *turnbased.Env[S, G] {
	t.Helper()
	e, err := turnbased.New(g, opts)
	require.NoError(t, err)
	return e
}
