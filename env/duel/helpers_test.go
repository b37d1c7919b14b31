package duel_test

import (
	"testing"

	"github.com/splendor-rl/splendor/env/duel"
	"github.com/splendor-rl/splendor/internal/rulestest"
)

// engine is the shared test kit, bound to this engine.
var engine = rulestest.Engine[duel.State, duel.ActionSet, *duel.State, *duel.ActionSet]{
	NumActions: duel.NumActions, Parse: duel.Parse, ParseAction: duel.ParseAction,
	Label: duel.Label, ErrIllegal: duel.ErrIllegal, ErrNotation: duel.ErrNotation,
	Seats: func(*duel.State) int { return duel.NumPlayers },
}

// position is a start-of-game layout with a known full board;
// "payment=choose" opens the text of a game of the payment variant.
//
//	  a b c d e
//	1 w b g r k
//	2 b g r k w
//	3 g r o w b     (c3: gold)
//	4 r k w p g
//	5 o k b p o
var position = rulestest.Position{
	Order: []string{"payment", "seat", "phase", "turn", "passes", "again", "replenished", "pending", "chance",
		"bag", "board", "pyramid", "decks", "p0", "p1"},
	Base: map[string]string{
		"payment": "", "seat": "0", "phase": "main", "turn": "0", "passes": "0", "again": "0",
		"replenished": "0", "pending": "-", "chance": "0000000000000001", "bag": "0000000",
		"board":   "wbgrk/bgrkw/growb/rkwpg/okbpo",
		"pyramid": "0.5.10.15.20/30.34.38.42/60.61.62", "decks": "6.7.8/35/63",
		"p0": "0000000|0|-|-|-", "p1": "0000000|1|-|-|-",
	},
}

// pos writes position with overrides given as "key=value".
func pos(overrides ...string) string { return position.Text(overrides...) }

// deals are n games under each payment rule, dealt from seeds 0 to n-1:
// the standard rule's first.
func deals(n int) []duel.State {
	var games []duel.State
	for _, choose := range []bool{false, true} {
		for seed := range n {
			s := duel.New(uint64(seed))
			s.ChoosePayment = choose
			games = append(games, s)
		}
	}
	return games
}

// handed writes position once turn 0 is over and handed to seat 1, with
// overrides given as "key=value".
func handed(overrides ...string) string {
	return pos(with([]string{"seat=1", "turn=1"}, overrides...)...)
}

// with appends overrides to a shared list without aliasing it.
var with = rulestest.With

// ruleCase and legalCase are the kit's tables, local so that they may be
// written without field names.
type (
	ruleCase  rulestest.RuleCase
	legalCase rulestest.LegalCase
)

// runRuleCases and runLegalCases run the tables with this engine.
func runRuleCases(t *testing.T, cases []ruleCase)   { rulestest.RunRuleCases(t, &engine, cases) }
func runLegalCases(t *testing.T, cases []legalCase) { rulestest.RunLegalCases(t, &engine, cases) }
