package splendor_test

import (
	"strconv"

	"github.com/splendor-rl/splendor/env/splendor"
	"github.com/splendor-rl/splendor/internal/rulestest"
)

// engine is the shared test kit, bound to this engine.
var engine = rulestest.Engine[splendor.State, splendor.ActionSet, *splendor.State, *splendor.ActionSet]{
	NumActions: splendor.NumActions, Parse: splendor.Parse, ParseAction: splendor.ParseAction,
	Label: splendor.Label, ErrIllegal: splendor.ErrIllegal, ErrNotation: splendor.ErrNotation,
	Seats: func(s *splendor.State) int { return int(s.NumPlayers) },
}

// position is the start of a 2-player game with a known layout; payment and
// buying are written only when set (see State.String), and only the seats
// of the game.
var position = rulestest.Position{
	Order: []string{"payment", "players", "seat", "phase", "buying", "turn", "final", "passes", "bank",
		"nobles", "market", "decks", "p0", "p1", "p2", "p3"},
	Base: map[string]string{
		"payment": "", "buying": "",
		"players": "2", "seat": "0", "phase": "main", "turn": "0", "final": "0", "passes": "0",
		"bank": "444445", "nobles": "0.1.2.-.-",
		"market": "0.24.36.22/40.41.42.43/70.71.72.73", "decks": "5.6/46/74",
		"p0": "000000|-|-|-", "p1": "000000|-|-|-", "p2": "000000|-|-|-", "p3": "000000|-|-|-",
	},
	Omit: func(fields map[string]string, key string) bool {
		players, _ := strconv.Atoi(fields["players"])
		return len(key) == 2 && key[0] == 'p' && int(key[1]-'0') >= players
	},
}

// pos writes position with overrides given as "key=value".
func pos(overrides ...string) string { return position.Text(overrides...) }

// deals are n games of every player count under both payment rules, dealt
// from seeds 0 to n-1: the 2-player games of the standard rule first.
func deals(n int) []splendor.State {
	var games []splendor.State
	for _, choose := range []bool{false, true} {
		for players := splendor.MinPlayers; players <= splendor.MaxPlayers; players++ {
			for seed := range n {
				s, _ := splendor.New(players, uint64(seed))
				s.ChoosePayment = choose
				games = append(games, s)
			}
		}
	}
	return games
}

// choosing is pos in a game with the payment choice.
func choosing(overrides ...string) string {
	return pos(append([]string{"payment=choose"}, overrides...)...)
}

// ruleCase and legalCase are the kit's tables, local so that they may be
// written without field names.
type (
	ruleCase  rulestest.RuleCase
	legalCase rulestest.LegalCase
)
