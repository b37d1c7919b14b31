package main

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/splendor-rl/splendor/env/splendor"
)

func play(args []string, out io.Writer) error {
	fs := flag.NewFlagSet("play", flag.ContinueOnError)
	players := fs.Int("players", 2, "number of players (2–4)")
	seed := fs.Uint64("seed", 1, "seed of the deal and of the random players")
	if err := fs.Parse(args); err != nil {
		return err
	}
	fmt.Fprintf(out, "Splendor, %d players, seed %d: random players\n", *players, *seed)
	s, err := randomGame(*players, *seed, func(s *splendor.State, _ *splendor.ActionSet, a int) {
		if s.Phase == splendor.PhaseMain {
			fmt.Fprintf(out, "turn %3d  seat %d  %s\n", s.Turn+1, s.Seat, splendor.Label(a))
			return
		}
		fmt.Fprintf(out, "                  then %s\n", splendor.Label(a))
	})
	if err != nil {
		return err
	}
	printResult(out, &s)
	return nil
}

func printResult(out io.Writer, s *splendor.State) {
	fmt.Fprintf(out, "\nGame over after %d turns.\n", s.Turn)
	for i := 0; i < int(s.NumPlayers); i++ {
		p := &s.Players[i]
		fmt.Fprintf(out, "seat %d: %2d points, %2d cards, %d nobles, bonuses %s\n",
			i, p.Points, p.Bought.Len(), p.Nobles.Len(), bonuses(p))
	}
	if s.Blocked() {
		fmt.Fprintln(out, "Blocked: a whole round passed with nobody able to act; nobody wins.")
		return
	}
	var winners []string
	for i := 0; i < int(s.NumPlayers); i++ {
		if s.Winners()&(1<<i) != 0 {
			winners = append(winners, fmt.Sprintf("seat %d", i))
		}
	}
	fmt.Fprintf(out, "Winner: %s\n", strings.Join(winners, " and "))
}

func bonuses(p *splendor.Player) string {
	parts := make([]string, splendor.NumColours)
	for g := splendor.White; g <= splendor.Black; g++ {
		parts[g] = fmt.Sprintf("%s %d", g, p.Bonus[g])
	}
	return strings.Join(parts, ", ")
}
