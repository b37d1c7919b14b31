package splendor_test

import (
	"fmt"
	"testing"

	"github.com/splendor-rl/splendor/env/splendor"
)

// TestCheckAcceptsPlayedStates: every state of seeded random games, of every
// player count and both payment rules, passes Check, as does its notation
// parsed back.
func TestCheckAcceptsPlayedStates(t *testing.T) {
	for _, choose := range []bool{false, true} {
		for players := splendor.MinPlayers; players <= splendor.MaxPlayers; players++ {
			engine.CheckAcceptsPlayedStates(t, deals(players, 20, choose))
		}
	}
}

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
