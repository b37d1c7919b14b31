package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/splendor-rl/splendor/env/duel"
	"github.com/splendor-rl/splendor/env/splendor"
	"github.com/splendor-rl/splendor/env/splendorenv"
	tv "github.com/splendor-rl/splendor/env/tableview"
)

// play prints one random game, decision by decision, then its result. It
// plays the same game as the first of `trace` with the same flags.
func play(args []string, out io.Writer) error {
	fs := newFlagSet("play")
	game := fs.String("game", "splendor", "the game: splendor or duel")
	players := fs.Int("players", 2, "number of players, 2-4 (Splendor only: duel is a 2-player game)")
	seed := fs.Uint64("seed", 1, "seed of the deal and of the random players")
	payment := paymentFlag(fs)
	if done, err := fs.parse(args, out); done {
		return err
	}
	if err := checkGame(fs, *game, *players, *payment); err != nil {
		return err
	}
	if *game == "duel" {
		return playDuel(out, *seed, *payment == paymentChoose)
	}
	return playSplendor(out, splendorRules{players: *players, choosePayment: *payment == paymentChoose}, *seed)
}

func playSplendor(out io.Writer, rules splendorRules, seed uint64) error {
	fmt.Fprintf(out, "Splendor, %d players, seed %d%s: random players\n", rules.players, seed, paymentNote(rules))
	p := newDecisionPrinter(out)
	s, err := randomGame(rules, seed, func(s *splendor.State, _ *splendor.ActionSet, a int) {
		v := splendorenv.View(s, tv.Referee)
		p.print(splendorenv.Board(&v), s.Turn, s.Seat, splendor.Label(a))
	})
	if err != nil {
		return err
	}
	printResult(out, &s)
	return nil
}

// paymentNote names the payment rule in the heading when it is not the
// default, so that the default game prints as it always did.
func paymentNote(rules splendorRules) string {
	if rules.choosePayment {
		return ", payment choose"
	}
	return ""
}

// decisionPrinter prints each decision under the board it is made on: a
// turn's first decision with the turn and the seat, its follow-up decisions
// (returns, nobles, Duel's privileges, abilities…) indented with "then". Turns count from 1 here, as people count them.
type decisionPrinter struct {
	out  io.Writer
	turn int64 // the turn printed last, -1 before the first
}

func newDecisionPrinter(out io.Writer) *decisionPrinter { return &decisionPrinter{out: out, turn: -1} }

// print prints the board a decision is made on, then the decision: turn is
// the number of turns completed before it, which both engines keep.
func (p *decisionPrinter) print(board string, turn uint32, seat uint8, label string) {
	fmt.Fprintf(p.out, "\n%s", board)
	if int64(turn) == p.turn {
		fmt.Fprintf(p.out, "                  then %s\n", label)
		return
	}
	p.turn = int64(turn)
	fmt.Fprintf(p.out, "turn %3d  seat %d  %s\n", turn+1, seat, label)
}

func printResult(out io.Writer, s *splendor.State) {
	fmt.Fprintf(out, "\nGame over after %d turns.\n", s.Turn)
	for i := 0; i < int(s.NumPlayers); i++ {
		p := &s.Players[i]
		fmt.Fprintf(out, "seat %d: %2d points, %2d cards, %d nobles, bonuses %s\n",
			i, p.Points, p.Bought.Len(), p.Nobles.Len(), perColour(p.Bonus[:], splendorColour))
	}
	if s.Blocked() {
		fmt.Fprintln(out, "Blocked: a whole round passed with nobody able to act; nobody wins.")
		return
	}
	fmt.Fprintf(out, "Winner: %s\n", seats(s.Winners()))
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

func splendorColour(g int) string { return splendor.Gem(g).String() }

func duelColour(g int) string { return duel.Gem(g).String() }
