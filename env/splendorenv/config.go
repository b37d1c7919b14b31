// Package splendorenv is Splendor as an RL environment (id "splendor-v1"):
// the action table, the observation layout, rewards, seats, built-in bots and
// the turn limit, over the rules engine in env/splendor.
package splendorenv

import (
	"github.com/splendor-rl/splendor/env"
	"github.com/splendor-rl/splendor/env/bots"
	"github.com/splendor-rl/splendor/env/splendor"
)

// ID and Version name this env; bump Version with a line in
// docs/envs/splendor.md whenever the layout or semantics change.
const (
	ID      = "splendor-v1"
	Version = 2
)

// Reward schemes.
const (
	RewardTerminal  = "terminal"   // zero-sum win/loss at the end only
	RewardScoreDiff = "score_diff" // plus dense zero-sum shaping by points
)

// Payment rules: the engine pays gems before gold, or the buyer decides
// (splendor.State.ChoosePayment).
const (
	PaymentAuto   = "auto"
	PaymentChoose = "choose"
)

// config is one env's options, read once by Make.
type config struct {
	players int
	mode    env.Mode
	// seat is the client's seat in vs-bots mode, or -1 for a seat drawn per
	// episode from the episode seed.
	seat      int
	bots      [splendor.MaxPlayers]bots.Spec
	maxRounds int
	reward    string
	// choosePayment deals every game with splendor.State.ChoosePayment.
	choosePayment bool
}

// DefaultMaxRounds truncates an episode after this many rounds: random
// players finish in about 40, so only a stalling policy reaches it.
const DefaultMaxRounds = 100

func readConfig(o *env.OptionReader) config {
	c := config{
		players:   o.Int("players", 2, splendor.MinPlayers, splendor.MaxPlayers),
		mode:      env.Mode(o.String("mode", string(env.SelfPlay), string(env.SelfPlay), string(env.VsBots))),
		maxRounds: o.Int("max_rounds", DefaultMaxRounds, 1, 10000),
		reward:    o.String("reward", RewardTerminal, RewardTerminal, RewardScoreDiff),
	}
	c.seat = o.Int("seat", -1, -1, c.players-1)
	copy(c.bots[:], o.Bots("bots", c.players))
	c.choosePayment = o.String("payment", PaymentAuto, PaymentAuto, PaymentChoose) == PaymentChoose
	return c
}

func init() {
	env.Register(env.Game{ID: ID, Make: func(o *env.OptionReader) (env.Spec, func() env.Env) {
		c := readConfig(o)
		return spec(c), func() env.Env { return newEnv(c) }
	}, Components: components})
}

func spec(c config) env.Spec {
	labels := make([]string, splendor.NumActions)
	for i := range labels {
		labels[i] = splendor.Label(i)
	}
	bound := float32(1)
	if c.reward == RewardScoreDiff {
		bound += maxShapingPerStep
	}
	return env.Spec{ID: ID, Version: Version, ObsShape: []int{ObsSize}, NumActions: splendor.NumActions,
		ActionLabels: labels, Players: c.players, Mode: c.mode, RewardRange: [2]float32{-bound, bound}}
}
