package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/splendor-rl/splendor/env/duel"
	"github.com/splendor-rl/splendor/env/duelenv"
	tv "github.com/splendor-rl/splendor/env/tableview"
)

// playDuel prints one random Splendor Duel game from seed, of the payment
// variant when choose is set, then its result.
func playDuel(out io.Writer, seed uint64, choose bool) error {
	note := ""
	if choose {
		note = ", payment choose" // the default game prints as it always did
	}
	fmt.Fprintf(out, "Splendor Duel, seed %d%s: random players\n", seed, note)
	s := duel.New(seed)
	s.ChoosePayment = choose
	var legal duel.ActionSet
	p := newDecisionPrinter(out)
	err := playRandomly(&s, &legal, seed, func(_ *duel.ActionSet, a int) {
		v := duelenv.View(&s, tv.Referee)
		p.print(duelenv.Board(&v), s.Turn, s.Seat, duel.Label(a))
	})
	if err != nil {
		return err
	}
	printDuelResult(out, &s)
	return nil
}

func printDuelResult(out io.Writer, s *duel.State) {
	fmt.Fprintf(out, "\nGame over after %d turns.\n", s.Turn)
	for i := range s.Players {
		p := &s.Players[i]
		fmt.Fprintf(out, "seat %d: %2d points, %2d crowns, %2d cards, %d royals, colour points %s\n",
			i, p.Points, p.Crowns, p.Bought.Len(), p.Royals.Len(), perColour(p.ColourPoints[:], duelColour))
	}
	if s.Blocked() {
		fmt.Fprintln(out, "Blocked: both seats in turn could do nothing; nobody wins.")
		return
	}
	fmt.Fprintf(out, "Winner: %s, by %s\n", seats(s.Winners()), victoryText(s.Players[s.Seat].Victory()))
}

// victoryText spells the victory conditions a winner met.
func victoryText(v duel.Victory) string {
	var met []string
	if v&duel.VictoryPoints != 0 {
		met = append(met, fmt.Sprintf("%d+ prestige points", duel.PointsToWin))
	}
	if v&duel.VictoryCrowns != 0 {
		met = append(met, fmt.Sprintf("%d+ crowns", duel.CrownsToWin))
	}
	if v&duel.VictoryColour != 0 {
		met = append(met, fmt.Sprintf("%d+ prestige points in one colour", duel.ColourToWin))
	}
	return strings.Join(met, " and ")
}
