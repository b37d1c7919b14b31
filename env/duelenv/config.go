// Package duelenv is Splendor Duel as an RL environment (id
// "splendor-duel-v1"): the action table, the observation layout, rewards,
// seats, built-in bots and the turn limit, over the rules engine in env/duel.
package duelenv

import (
	"github.com/splendor-rl/splendor/env"
	"github.com/splendor-rl/splendor/env/bots"
	"github.com/splendor-rl/splendor/env/duel"
)

// ID and Version name this env; bump Version with a line in
// docs/envs/splendor-duel.md whenever the layout or semantics change.
const (
	ID      = "splendor-duel-v1"
	Version = 2
)

// Reward schemes and payment rules, named as in splendor-v1.
const (
	RewardTerminal  = "terminal"
	RewardScoreDiff = "score_diff"
	// PaymentAuto spends gems and pearls before gold, as the standard game;
	// PaymentChoose lets the buyer pay with gold for a gem or pearl it holds
	// (phase pay).
	PaymentAuto   = "auto"
	PaymentChoose = "choose"
)

// DefaultMaxRounds truncates an episode after this many rounds (a round is a
// turn of each seat); random players finish in well under 100.
const DefaultMaxRounds = 100

type config struct {
	mode      env.Mode
	seat      int // the client's seat in vs-bots mode, −1: drawn per episode
	bots      [duel.NumPlayers]bots.Spec
	maxRounds int
	reward    string
	payment   string
}

func readConfig(o *env.OptionReader) config {
	c := config{
		mode:      env.Mode(o.String("mode", string(env.SelfPlay), string(env.SelfPlay), string(env.VsBots))),
		seat:      o.Int("seat", -1, -1, duel.NumPlayers-1),
		maxRounds: o.Int("max_rounds", DefaultMaxRounds, 1, 10000),
		reward:    o.String("reward", RewardTerminal, RewardTerminal, RewardScoreDiff),
		payment:   o.String("payment", PaymentAuto, PaymentAuto, PaymentChoose),
	}
	o.Int("players", duel.NumPlayers, duel.NumPlayers, duel.NumPlayers) // accepted for symmetry with splendor-v1
	copy(c.bots[:], o.Bots("bots", duel.NumPlayers))
	return c
}

func init() {
	env.Register(env.Game{ID: ID, Make: func(o *env.OptionReader) (env.Spec, func() env.Env) {
		c := readConfig(o)
		return spec(c), func() env.Env { return newEnv(c) }
	}, Components: components})
}

func spec(c config) env.Spec {
	labels := make([]string, duel.NumActions)
	for i := range labels {
		labels[i] = duel.Label(i)
	}
	bound := float32(1)
	if c.reward == RewardScoreDiff {
		bound += maxShapingPerStep
	}
	return env.Spec{ID: ID, Version: Version, ObsShape: []int{ObsSize}, NumActions: duel.NumActions,
		ActionLabels: labels, Players: duel.NumPlayers, Mode: c.mode, RewardRange: [2]float32{-bound, bound}}
}
