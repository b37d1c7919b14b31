package duel_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/splendor-rl/splendor/env/duel"
)

// TestCheckRefusesImpossibleStates edits a valid mid-game state, one fault
// at a time.
func TestCheckRefusesImpossibleStates(t *testing.T) {
	base := midgame(3, 20)
	cell := 0
	for base.Board[cell] == duel.NoGem {
		cell++
	}
	engine.CheckRefuses(t, base, map[string]func(s *duel.State) string{
		"seat out of range": func(s *duel.State) string { s.Seat = duel.NumPlayers; return "seat 2" },
		"token too many in a seat": func(s *duel.State) string {
			s.Players[1].Tokens[duel.Pearl]++
			return "tokens: 3 pearl, want 2"
		},
		"token missing from the board": func(s *duel.State) string {
			g := s.Board[cell]
			s.Board[cell] = duel.NoGem
			return fmt.Sprintf("tokens: %d %s, want %d", duel.Supply[g]-1, g, duel.Supply[g])
		},
		"token too many in the bag": func(s *duel.State) string {
			s.Bag[duel.Gold]++
			return "tokens: 4 gold, want 3"
		},
		"duplicated card": func(s *duel.State) string {
			c := s.Pyramid[0] // also bought by a seat
			s.Players[1].Bought.Add(c)
			return fmt.Sprintf("card %d appears twice", c)
		},
		"missing card": func(s *duel.State) string {
			s.DeckSize[2]--
			return fmt.Sprintf("card %d is missing", s.Decks[2][s.DeckSize[2]])
		},
		"privilege too many": func(s *duel.State) string {
			s.Players[0].Privileges += s.PrivilegeSupply() + 1 // none left beside the board, and one more
			return "privileges: 4 with the seats"
		},
		"royal without crowns": func(s *duel.State) string {
			s.Players[0].Royals |= 1
			return "seat 0 holds 1 royals"
		},
	})
}

// TestCheckRefusesPhasesThePositionContradicts: a game is over exactly
// when the seat to act met a victory condition at the end of its turn or
// both seats passed in turn, and the opponent of the seat to act never has.
// Otherwise a game over mid-game would have no legal action and no winner.
func TestCheckRefusesPhasesThePositionContradicts(t *testing.T) {
	mid := midgame(3, 20)
	engine.CheckRefuses(t, mid, map[string]func(s *duel.State) string{
		"over mid-game":       func(s *duel.State) string { s.Phase = duel.PhaseOver; return "has not won" },
		"two passes not over": func(s *duel.State) string { s.Passes = 2; return "passes in a row" },
	})
	ended := engine.Reach(t, deals(20), func(s *duel.State) bool { return s.Over() && !s.Blocked() })
	engine.CheckRefuses(t, ended, map[string]func(s *duel.State) string{
		"main after a victory": func(s *duel.State) string {
			s.Phase = duel.PhaseMain
			for l := 0; l < duel.NumLevels; l++ { // the refill of a game going on
				for k := duel.PyramidStart[l]; k < duel.PyramidStart[l+1]; k++ {
					if s.Pyramid[k] == duel.NoCard && s.DeckSize[l] > 0 {
						s.DeckSize[l]--
						s.Pyramid[k], s.Decks[l][s.DeckSize[l]] = s.Decks[l][s.DeckSize[l]], duel.NoCard
					}
				}
			}
			return "has won but"
		},
		"the opponent already won": func(s *duel.State) string { s.Seat = 1 - s.Seat; return "not to act, has won" },
		"over with a turn due":     func(s *duel.State) string { s.Again = true; return "again=true" },
	})
	text := strings.Replace(mid.String(), "phase=main", "phase=over", 1)
	engine.CheckRefusesText(t, map[string]string{"the probe of issue 22": text})
}
