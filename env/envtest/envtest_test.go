package envtest_test

import (
	"flag"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/splendor-rl/splendor/env"
	_ "github.com/splendor-rl/splendor/env/duelenv"
	"github.com/splendor-rl/splendor/env/envtest"
	_ "github.com/splendor-rl/splendor/env/splendorenv"
	_ "github.com/splendor-rl/splendor/env/turnbased/climb"
	"github.com/splendor-rl/splendor/internal/golden"
	"github.com/stretchr/testify/require"
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

var update = flag.Bool("update", false, "rewrite testdata golden files")

// trajectoryCases cover every game and player count under every mode, bot
// kind, payment rule, reward scheme and illegal-action policy.
func trajectoryCases() map[string]env.Options {
	cases := map[string]env.Options{}
	for _, id := range []string{"splendor-v1", "splendor-duel-v1"} {
		players := []int{2, 3, 4}
		if id == "splendor-duel-v1" {
			players = []int{2}
		}
		for _, p := range players {
			for name, opts := range map[string]env.Options{
				"self-play":                   {},
				"self-play choose score_diff": {"payment": "choose", "reward": "score_diff"},
				"vs random forfeit":           {"mode": "vs_bots", "illegal_action": "forfeit"},
				"vs greedy choose seat 1":     {"mode": "vs_bots", "bots": "greedy", "seat": 1, "payment": "choose"},
				"vs mcts short games":         {"mode": "vs_bots", "bots": "mcts:iterations=4,rollout=random", "max_rounds": 12},
			} {
				opts["players"] = p
				cases[fmt.Sprintf("%s %dp %s", id, p, name)] = opts
			}
		}
	}
	return cases
}

// The same seeds and actions give the same games, bit for bit, as when the
// golden file was written: a refactoring of the envs or engines must leave
// every hash as it is (rewrite with -update only for an intended change of
// rules or layout, with a version bump).
func TestTrajectoriesAreUnchanged(t *testing.T) {
	cases := trajectoryCases()
	names := slices.Sorted(maps.Keys(cases))
	var got strings.Builder
	for _, name := range names {
		steps := 3000
		if testing.Short() {
			steps = 300
		}
		envs := 64
		if strings.Contains(name, "mcts") { // a search per bot decision: fewer games
			envs = 8
		}
		hash, episodes := envtest.TrajectoryHash(t, strings.Fields(name)[0], cases[name], envs, steps)
		require.Positive(t, episodes, name)
		fmt.Fprintf(&got, "%s: %016x after %d steps of %d envs, %d episodes\n", name, hash, steps, envs, episodes)
	}
	if testing.Short() {
		return // the golden file holds the full-length hashes
	}
	golden.Check(t, "testdata/trajectories.txt", got.String(), *update)
}
