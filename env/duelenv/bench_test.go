package duelenv_test

import (
	"testing"

	"github.com/splendor-rl/splendor/env"
	"github.com/splendor-rl/splendor/env/envtest"
	"github.com/splendor-rl/splendor/env/duelenv"
)

func BenchmarkVectorSelfPlay(b *testing.B) { envtest.BenchmarkVector(b, duelenv.ID, nil) }

func BenchmarkVectorVsRandom(b *testing.B) {
	envtest.BenchmarkVector(b, duelenv.ID, env.Options{"mode": "vs_bots"})
}

func BenchmarkVectorVsGreedy(b *testing.B) {
	envtest.BenchmarkVector(b, duelenv.ID, env.Options{"mode": "vs_bots", "bots": "greedy"})
}

func BenchmarkVectorFloat32(b *testing.B) {
	envtest.BenchmarkVector(b, duelenv.ID, env.Options{"obs_dtype": "float32"})
}
