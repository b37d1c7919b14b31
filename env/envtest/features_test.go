package envtest

import (
	"testing"

	"github.com/splendor-rl/splendor/env"
	_ "github.com/splendor-rl/splendor/env/duelenv"
	_ "github.com/splendor-rl/splendor/env/splendorenv"
	"github.com/stretchr/testify/require"
)

// The block of derived values keeps the step path allocation-free. As in
// env's TestStepDoesNotAllocate, a whole run of steps counts once, so that
// the resets of the episodes ending on the way count whole: the pool's
// wake-ups allocate now and then in the runtime, while an allocation per
// step or per reset would show as one per episode.
func TestStepWithFeaturesDoesNotAllocate(t *testing.T) {
	for _, id := range []string{"splendor-v1", "splendor-duel-v1"} {
		v, err := env.Make(id, 64, env.Options{"features": "derived"}, 1, nil)
		require.NoError(t, err)
		require.NoError(t, v.Reset(nil, nil))
		p, actions := newPlayers(v.Len(), 1), make([]int32, v.Len())
		episodes := 0
		allocs := testing.AllocsPerRun(1, func() { // run twice: a warm-up, then the one counted
			episodes = 0
			for range 200 {
				p.choose(v, actions)
				require.NoError(t, v.Step(actions))
				for i := range v.Len() {
					episodes += btoi(v.Terminated[i] || v.Truncated[i])
				}
			}
		})
		require.Greater(t, episodes, 40, id)
		require.Less(t, allocs, float64(episodes)/20, "%s: %d episodes", id, episodes)
	}
}
