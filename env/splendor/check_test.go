package splendor_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/splendor-rl/splendor/env/splendor"
)

// TestCheckRefusesImpossibleStates edits a valid mid-game state, one fault
// at a time.
func TestCheckRefusesImpossibleStates(t *testing.T) {
	base := midgame(3, 30)
	bankGem := splendor.White
	for base.Bank[bankGem] == 0 {
		bankGem++
	}
	engine.CheckRefuses(t, base, map[string]func(s *splendor.State) string{
		"token too many in a seat": func(s *splendor.State) string {
			s.Players[1].Tokens[splendor.Red]++
			return fmt.Sprintf("tokens: %d red, want 4", total(s, splendor.Red))
		},
		"token missing from the supply": func(s *splendor.State) string {
			s.Bank[bankGem]--
			return fmt.Sprintf("tokens: %d %s, want 4", total(s, bankGem), bankGem)
		},
		"gold missing": func(s *splendor.State) string {
			s.Bank[splendor.Gold], s.Players[0].Tokens[splendor.Gold] = 0, 0
			s.Players[1].Tokens[splendor.Gold] = 0
			return "tokens: 0 gold, want 5"
		},
		"duplicated card": func(s *splendor.State) string {
			c := s.Market[0][0] // also put on top of its deck
			s.Decks[0][s.DeckSize[0]] = c
			s.DeckSize[0]++
			return fmt.Sprintf("card %d appears twice", c)
		},
		"missing card": func(s *splendor.State) string {
			s.DeckSize[1]--
			return fmt.Sprintf("card %d is missing", s.Decks[1][s.DeckSize[1]])
		},
		"missing noble": func(s *splendor.State) string {
			s.Nobles[0] = splendor.NoNoble
			return "nobles: 2, want 3"
		},
		"points not from the cards": func(s *splendor.State) string {
			s.Players[0].Points++
			return "seat 0: "
		},
	})
}

func total(s *splendor.State, g splendor.Gem) int {
	n := int(s.Bank[g])
	for i := 0; i < int(s.NumPlayers); i++ {
		n += int(s.Players[i].Tokens[g])
	}
	return n
}

// TestCheckRefusesPhasesThePositionContradicts: the seats take turns in
// order; the final round starts exactly when a seat ends its turn at 15;
// and a game is over exactly when a round is complete in it or a whole
// round passed. Otherwise a game over mid-game would have no legal action
// and no winner.
func TestCheckRefusesPhasesThePositionContradicts(t *testing.T) {
	mid := midgame(3, 30)
	over := func(s *splendor.State) string { s.Phase = splendor.PhaseOver; return "phase over" }
	engine.CheckRefuses(t, mid, map[string]func(s *splendor.State) string{
		"over mid-game":              over,
		"a round of passes not over": func(s *splendor.State) string { s.Passes = 2; return "phase main" },
		"seat out of turn":           func(s *splendor.State) string { s.Turn++; return "after 23 turns" },
		"final round, nobody at 15": func(s *splendor.State) string {
			s.FinalRound, s.Seat, s.Turn = true, 1, 31 // seat 0 would end the game
			return "final round but"
		},
	})
	final := engine.Reach(t, deals(20), func(s *splendor.State) bool {
		return s.FinalRound && s.Phase == splendor.PhaseMain
	})
	engine.CheckRefuses(t, final, map[string]func(s *splendor.State) string{
		"over before the round is complete": over,
		"at 15 without the final round": func(s *splendor.State) string {
			s.FinalRound = false
			return "but the final round has not started"
		},
	})
	ended := engine.Reach(t, deals(20), func(s *splendor.State) bool { return s.Over() && !s.Blocked() })
	engine.CheckRefuses(t, ended, map[string]func(s *splendor.State) string{
		"main after the final round": func(s *splendor.State) string { s.Phase = splendor.PhaseMain; return "phase main" },
	})
	text := strings.Replace(mid.String(), "phase=main", "phase=over", 1)
	engine.CheckRefusesText(t, map[string]string{"the probe of issue 22": text})
}
