package duel_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/splendor-rl/splendor/env/duel"
	"github.com/splendor-rl/splendor/internal/rulestest"
)

// TestPlaythroughs plays the golden games. Any change to the deal, the bag
// draws, the legal sets, the effect of an action or the notation shows up
// as a diff in their files. The seeds were picked for short games that
// between them reach every phase and reserve blind (the coverage the kit
// requires), and end by each victory condition: points (5), one colour
// (154, won by seat 1), crowns (305); seed 99 plays the "choose payment"
// variant and asks for payments.
func TestPlaythroughs(t *testing.T) {
	games := []rulestest.Game[duel.State]{game(5, false), game(154, false), game(305, false), game(99, true)}
	coverage := []string{" phase=main ", " phase=reserve ", " phase=pay ", " phase=joker ", " phase=token ",
		" phase=steal ", " phase=royal ", " phase=return ", "|*", "chose=replenish", "chose=privilege ",
		"chose=pay gold for ", "chose=pay done"}
	engine.Playthroughs(t, games, coverage, outcome)
}

func game(seed uint64, choose bool) rulestest.Game[duel.State] {
	s := duel.New(seed)
	s.ChoosePayment = choose
	g := rulestest.Game[duel.State]{Seed: seed, Deal: s,
		File:   fmt.Sprintf("playthrough_seed%d.txt", seed),
		Header: fmt.Sprintf("Splendor Duel playthrough: duel.New(%d)", seed)}
	if choose {
		g.File = fmt.Sprintf("playthrough_seed%d_choose.txt", seed)
		g.Header += " with ChoosePayment"
	}
	return g
}

// outcome spells the scores (points and crowns per seat), the winner and the
// victory condition, or "blocked".
func outcome(s *duel.State) (uint32, string) {
	var scores []string
	for i := range s.Players {
		p := &s.Players[i]
		scores = append(scores, fmt.Sprintf("%dpts/%dcrowns", p.Points, p.Crowns))
	}
	result := "blocked"
	if !s.Blocked() {
		result = fmt.Sprintf("winner=%d by=%s", s.Seat, s.Players[s.Seat].Victory())
	}
	return s.Turn, fmt.Sprintf("scores=%s %s", strings.Join(scores, ","), result)
}
