package main

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/splendor-rl/splendor/env/turnbased"
)

// game is one game as play and trace know it: its env's description (the
// player counts and the action labels, see withEnv) and what only these
// commands say of it. A new game is one more entry of games, with its table.
type game struct {
	flag       string // its --game name
	name       string // as play's heading names it
	errPlayers error  // refuses a player count the game cannot seat
	deal       func(o options, seed uint64) (table, error)
	blocked    string // why nobody wins a blocked game

	minPlayers, maxPlayers int
	label                  func(action int) string
}

// games are the games play and trace know, in the order their help names them.
var games = []game{splendorGame, duelGame}

// withEnv completes g with what its env's description says.
func withEnv[S any, G turnbased.Rules[S]](rules *turnbased.Game[S, G], g game) game {
	g.minPlayers, g.maxPlayers, g.label = rules.MinPlayers, rules.MaxPlayers, rules.Label
	return g
}

// table is a game being played (*splendorTable, *duelTable): its engine's
// state, as random players, a trace and play's printout see it.
type table interface {
	Over() bool
	Apply(action int) error
	legal(buf []int) []int // the legal actions, increasing, appended to buf
	position() position
	view() any     // the referee's view, as a trace writes it
	board() string // the referee's view, as play prints it
	// A finished game: its result line, and for play's result text each
	// seat's standing and how the winners won.
	Blocked() bool
	Winners() uint8
	resultLine(head resultHead) any
	printSeats(out io.Writer)
	wonBy() string
}

// position is where a decision stands: the turns completed before it, the
// seat to decide and the phase.
type position struct {
	turn, seat int
	phase      string
}

// options are the flags a game is dealt with.
type options struct {
	players int
	payment string
}

// The payment rules, named as the env option payment names them.
const (
	paymentAuto   = turnbased.PaymentAuto
	paymentChoose = turnbased.PaymentChoose
)

// dealFlags are the flags play and trace share: the game and how it is
// dealt (its player count and payment rule).
type dealFlags struct {
	*flagSet
	game, payment *string
	players       *int
}

func newDealFlags(command, playersHelp string) *dealFlags {
	f := &dealFlags{flagSet: newFlagSet(command)}
	f.game = f.String("game", games[0].flag, "the game: "+knownGames(" or "))
	f.players = f.Int("players", 2, playersHelp)
	return f
}

// parse reads args and finds the game. It declares --payment, so that the
// help lists it after the command's own flags, as it always did.
func (f *dealFlags) parse(args []string, out io.Writer) (g *game, o options, done bool, err error) {
	f.payment = f.String("payment", paymentAuto,
		"how gold pays for a card: auto (gems first) or choose (the buyer decides, in phase pay)")
	if stop, err := f.flagSet.parse(args, out); stop {
		return nil, o, true, err
	}
	g, o, err = f.check()
	return g, o, err != nil, err
}

func knownGames(sep string) string {
	var flags []string
	for _, g := range games {
		flags = append(flags, g.flag)
	}
	return strings.Join(flags, sep)
}

// check finds the game --game names, refusing one that does not exist and a
// player count or a payment rule the game cannot have, before anything is
// printed.
func (f *dealFlags) check() (*game, options, error) {
	i := slices.IndexFunc(games, func(g game) bool { return g.flag == *f.game })
	o := options{players: *f.players, payment: *f.payment}
	switch {
	case i < 0:
		return nil, o, f.badf("unknown --game %q (known: %s)", *f.game, knownGames(", "))
	case o.players < games[i].minPlayers || o.players > games[i].maxPlayers:
		return nil, o, f.bad(fmt.Errorf("%w, got --players %d", games[i].errPlayers, o.players))
	case o.payment != paymentAuto && o.payment != paymentChoose:
		return nil, o, f.badf("unknown --payment %q (known: %s, %s)", o.payment, paymentAuto, paymentChoose)
	}
	return &games[i], o, nil
}
