package splendorenv

import (
	"testing"

	"github.com/splendor-rl/splendor/env/envtest"
	"github.com/splendor-rl/splendor/env/splendor"
)

// BenchmarkMCTSDecision: one op is one decision of the default mcts bot on
// one core, in 2-player games.
func BenchmarkMCTSDecision(b *testing.B) {
	envtest.BenchmarkBotDecision[game](b, "mcts", func(seed uint64) game {
		s, _ := splendor.New(2, seed)
		return game{s}
	})
}
