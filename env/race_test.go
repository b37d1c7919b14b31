//go:build race

package env_test

// raceEnabled: the race detector drops sync.Pool items at random, so
// allocation counts of pooled paths mean nothing under it.
const raceEnabled = true
