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

// WithPayment is the table of a game whose buyer may choose how to pay: it
// reads the "payment" option; deal deals a game of that rule, and rule reads
// a game's (set_state must match it).
func WithPayment[S any](o *env.OptionReader, deal func(seed uint64, choose bool) S, rule func(s *S) bool) Table[S] {
	choose := o.String("payment", PaymentAuto, PaymentAuto, PaymentChoose) == PaymentChoose
	return Table[S]{
		Deal: func(seed uint64) S { return deal(seed, choose) },
		Fits: func(s *S) error {
			if rule(s) != choose {
				return errPaymentRule
			}
			return nil
		},
	}
}

var errPaymentRule = errors.New("the game's payment rule is not the env's")

// DefaultMaxRounds truncates an episode after this many rounds (a turn of
// each seat): random players finish well within it, so only a stalling
// policy reaches it.
const DefaultMaxRounds = 100

// config is one env's options, read once by Make.
type config[S any] struct {
	players int
	mode    env.Mode
	// seat is the client's seat in vs-bots mode, or -1 for a seat drawn per
	// episode from the episode seed.
	seat      int
	bots      [bots.MaxSeats]bots.Spec
	maxRounds int
	reward    string
	table     Table[S]
	features  bool // observations end with the game's Features block
}

func (g *Game[S, G]) readConfig(o *env.OptionReader) config[S] {
	c := config[S]{
		players:   o.Int("players", g.MinPlayers, g.MinPlayers, g.MaxPlayers),
		mode:      env.Mode(o.String("mode", string(env.SelfPlay), string(env.SelfPlay), string(env.VsBots))),
		maxRounds: o.Int("max_rounds", DefaultMaxRounds, 1, 10000),
		reward:    o.String("reward", RewardTerminal, RewardTerminal, RewardScoreDiff),
	}
	c.seat = o.Int("seat", -1, -1, c.players-1)
	copy(c.bots[:], o.Bots("bots", c.players))
	c.table = g.Table(o, c.players)
	c.features = g.readFeatures(o)
	return c
}
