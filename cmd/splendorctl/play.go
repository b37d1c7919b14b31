package main

import (
	"fmt"
	"io"
	"strings"

	tv "github.com/splendor-rl/splendor/env/tableview"
)

// play prints one random game, decision by decision, then its result. It
// plays the same game as the first of `trace` with the same flags.
func play(args []string, out io.Writer) error {
	fs := newDealFlags("play", "number of players, 2-4 (Splendor only: duel is a 2-player game)")
	seed := fs.Uint64("seed", 1, "seed of the deal and of the random players")
	g, o, done, err := fs.parse(args, out)
	if done {
		return err
	}
	return g.play(out, o, *seed)
}

// play prints the game dealt from seed with o.
func (g *game) play(out io.Writer, o options, seed uint64) error {
	t, err := g.deal(o, seed)
	if err != nil {
		return err
	}
	fmt.Fprint(out, g.heading(o, seed))
	p := newDecisionPrinter(out)
	err = playRandomly(t, seed, func(_ []int, a int) { p.print(t.board(), t.position(), g.label(a)) })
	if err != nil {
		return err
	}
	g.printResult(out, t)
	return nil
}

// printResult prints how t ended: its turns, each seat's standing, then the
// winners, or why nobody won.
func (g *game) printResult(out io.Writer, t table) {
	fmt.Fprintf(out, "\nGame over after %d turns.\n", t.position().turn)
	t.printSeats(out)
	if t.Blocked() {
		fmt.Fprintf(out, "Blocked: %s; nobody wins.\n", g.blocked)
		return
	}
	fmt.Fprintf(out, "Winner: %s%s\n", seats(t.Winners()), t.wonBy())
}

// heading names the game and how it is dealt: the player count when the
// game has a choice, and the payment rule when it is not the default, so
// that the default game prints as it always did.
func (g *game) heading(o options, seed uint64) string {
	h := g.name
	if g.minPlayers != g.maxPlayers {
		h += fmt.Sprintf(", %d players", o.players)
	}
	h += fmt.Sprintf(", seed %d", seed)
	if o.payment == paymentChoose {
		h += ", payment choose"
	}
	return h + ": random players\n"
}

// decisionPrinter prints each decision under the board it is made on: a
// turn's first decision with the turn and the seat, its follow-up decisions
// (returns, nobles, Duel's privileges, abilities…) indented with "then".
// Turns count from 1 here, as people count them.
type decisionPrinter struct {
	out  io.Writer
	turn int // the turn printed last, -1 before the first
}

func newDecisionPrinter(out io.Writer) *decisionPrinter { return &decisionPrinter{out: out, turn: -1} }

// print prints the board a decision is made on, then the decision.
func (p *decisionPrinter) print(board string, at position, label string) {
	fmt.Fprintf(p.out, "\n%s", board)
	if at.turn == p.turn {
		fmt.Fprintf(p.out, "                  then %s\n", label)
		return
	}
	p.turn = at.turn
	fmt.Fprintf(p.out, "turn %3d  seat %d  %s\n", at.turn+1, at.seat, label)
}

// seats names the seats of a set (bit i for seat i).
func seats(set uint8) string {
	var names []string
	for _, i := range tv.Seats(set) {
		names = append(names, fmt.Sprintf("seat %d", i))
	}
	return strings.Join(names, " and ")
}

// perColour spells one count per gem colour: "white 1, blue 0, …".
func perColour(counts []uint8, colour func(int) string) string {
	parts := make([]string, len(counts))
	for g, n := range counts {
		parts[g] = fmt.Sprintf("%s %d", colour(g), n)
	}
	return strings.Join(parts, ", ")
}
