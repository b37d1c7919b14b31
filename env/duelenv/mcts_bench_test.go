package duelenv

import (
	"testing"

	"github.com/splendor-rl/splendor/env/duel"
	"github.com/splendor-rl/splendor/env/envtest"
)

// BenchmarkMCTSDecision: one op is one decision of the default mcts bot on
// one core.
func BenchmarkMCTSDecision(b *testing.B) {
	envtest.BenchmarkBotDecision[game](b, "mcts", func(seed uint64) game { return game{duel.New(seed)} })
}
