package envtest_test

import (
	"testing"

	"github.com/splendor-rl/splendor/env"
	_ "github.com/splendor-rl/splendor/env/duelenv"
	"github.com/splendor-rl/splendor/env/envtest"
	_ "github.com/splendor-rl/splendor/env/splendorenv"
)

// Every registered env passes the suite with its default options; game
// packages run it again with their interesting options.
func TestEveryRegisteredEnv(t *testing.T) {
	ids := env.IDs()
	if len(ids) < 2 {
		t.Fatalf("registered envs: %v", ids)
	}
	for _, id := range ids {
		t.Run(id, func(t *testing.T) {
			envtest.Run(t, envtest.Case{ID: id, MaxEpisodeSteps: 5000})
		})
	}
}
