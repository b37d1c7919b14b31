package duelenv_test

import (
	"testing"

	"github.com/splendor-rl/splendor/env/duelenv"
	"github.com/splendor-rl/splendor/env/envtest"
)

func BenchmarkVector(b *testing.B) { envtest.BenchmarkVectors(b, duelenv.ID) }

func BenchmarkGuided(b *testing.B) { envtest.BenchmarkGuided(b, duelenv.ID) }
