package splendor_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/splendor-rl/splendor/env/splendor"
	"github.com/splendor-rl/splendor/internal/rulestest"
)

// TestPlaythroughs plays the golden games, one per player count and one
// with the payment choice. Any change to the deal, the legal sets, the
// effect of an action or the notation shows up as a diff in their files.
// The seeds were picked for short games that between them return tokens,
// choose a noble, reserve blind and pay with gold by choice, several times
// in one purchase too (the coverage the kit requires).
func TestPlaythroughs(t *testing.T) {
	games := []rulestest.Game[splendor.State]{
		game(2, 17, false), game(3, 17, false), game(4, 2244, false), game(2, 670, true),
	}
	coverage := []string{" phase=main ", " phase=pay ", " phase=return ", " phase=noble ", "|*",
		"chose=pay gold for", "chose=pay done"}
	engine.Playthroughs(t, games, coverage, outcome)
}

func game(players int, seed uint64, choose bool) rulestest.Game[splendor.State] {
	s, err := splendor.New(players, seed)
	if err != nil {
		panic(err)
	}
	s.ChoosePayment = choose
	g := rulestest.Game[splendor.State]{Seed: seed, Deal: s,
		File:   fmt.Sprintf("playthrough_%dp_seed%d.txt", players, seed),
		Header: fmt.Sprintf("Splendor playthrough: splendor.New(%d, %d)", players, seed)}
	if choose {
		g.File = fmt.Sprintf("playthrough_%dp_seed%d_choose.txt", players, seed)
		g.Header += " with ChoosePayment"
	}
	return g
}

// outcome spells the scores (points and cards bought per seat) and the
// winning seats, or "blocked".
func outcome(s *splendor.State) (uint32, string) {
	var scores, winners []string
	for i := 0; i < int(s.NumPlayers); i++ {
		p := &s.Players[i]
		scores = append(scores, fmt.Sprintf("%dpts/%dcards", p.Points, p.Bought.Len()))
		if s.Winners()&(1<<i) != 0 {
			winners = append(winners, fmt.Sprint(i))
		}
	}
	if s.Blocked() {
		winners = []string{"none (blocked)"}
	}
	return s.Turn, fmt.Sprintf("scores=%s winners=%s", strings.Join(scores, ","), strings.Join(winners, ","))
}
