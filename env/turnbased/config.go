package turnbased

import (
	"errors"

	"github.com/splendor-rl/splendor/env"
	"github.com/splendor-rl/splendor/env/bots"
)

// Reward schemes.
const (
	RewardTerminal  = "terminal"   // zero-sum win/loss at the end only
	RewardScoreDiff = "score_diff" // plus dense zero-sum shaping by points
)

// Payment rules, for games whose buyer may choose how to pay: the engine
// pays gems before gold, or the buyer decides (phase pay).
const (
	PaymentAuto   = "auto"
	PaymentChoose = "choose"
)

var errPaymentRule = errors.New("the game's payment rule is not the env's")

// DefaultMaxRounds truncates an episode after this many rounds (a turn of
// each seat): random players finish well within it, so only a stalling
// policy reaches it.
const DefaultMaxRounds = 100

// config is one env's options, read once by Make.
type config struct {
	players int
	mode    env.Mode
	// seat is the client's seat in vs-bots mode, or -1 for a seat drawn per
	// episode from the episode seed.
	seat      int
	bots      [bots.MaxSeats]bots.Spec
	maxRounds int
	reward    string
	choose    bool // the payment option (Game.Payment)
	features  bool // observations end with the game's Features block
}

func (g *Game[S, G]) readConfig(o *env.OptionReader) config {
	c := config{
		players:   o.Int("players", g.MinPlayers, g.MinPlayers, g.MaxPlayers),
		mode:      env.Mode(o.String("mode", string(env.SelfPlay), string(env.SelfPlay), string(env.VsBots))),
		maxRounds: o.Int("max_rounds", DefaultMaxRounds, 1, 10000),
		reward:    o.String("reward", RewardTerminal, RewardTerminal, RewardScoreDiff),
	}
	c.seat = o.Int("seat", -1, -1, c.players-1)
	copy(c.bots[:], o.Bots("bots", c.players))
	for _, b := range c.bots[:c.players] {
		if err := g.canPlay(b, c.players); err != nil {
			o.Refuse("bots", err)
		}
	}
	if g.Payment != nil {
		c.choose = o.String("payment", PaymentAuto, PaymentAuto, PaymentChoose) == PaymentChoose
	}
	c.features = g.readFeatures(o)
	return c
}
