package splendorenv_test

import (
	"testing"

	"github.com/splendor-rl/splendor/env/envtest"
	"github.com/splendor-rl/splendor/env/splendorenv"
)

func BenchmarkVector(b *testing.B) { envtest.BenchmarkVectors(b, splendorenv.ID) }

func BenchmarkGuided(b *testing.B) { envtest.BenchmarkGuided(b, splendorenv.ID) }
