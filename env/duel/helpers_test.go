package duel_test

import (
	"strings"
	"testing"

	"github.com/splendor-rl/splendor/env/duel"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// notationFields is the field order of the text notation.
var notationFields = []string{"seat", "phase", "turn", "passes", "again", "replenished", "pending", "chance",
	"bag", "board", "pyramid", "decks", "p0", "p1"}

// basePosition is a start-of-game layout with a known full board; pos
// overrides some of its fields so each case states only what matters.
//
//	  a b c d e
//	1 w b g r k
//	2 b g r k w
//	3 g r o w b     (c3: gold)
//	4 r k w p g
//	5 o k b p o
var basePosition = map[string]string{
	"seat": "0", "phase": "main", "turn": "0", "passes": "0", "again": "0", "replenished": "0", "pending": "-",
	"chance": "0000000000000001", "bag": "0000000",
	"board":   "wbgrk/bgrkw/growb/rkwpg/okbpo",
	"pyramid": "0.5.10.15.20/30.34.38.42/60.61.62", "decks": "6.7.8/35/63",
	"p0": "0000000|0|-|-|-", "p1": "0000000|1|-|-|-",
}

// pos writes basePosition with overrides given as "key=value";
// "payment=choose" opens the text of a game of the payment variant.
func pos(overrides ...string) string {
	fields := map[string]string{"payment": ""}
	for k, v := range basePosition {
		fields[k] = v
	}
	for _, o := range overrides {
		k, v, ok := strings.Cut(o, "=")
		if !ok {
			panic("override without '=': " + o)
		}
		if _, known := fields[k]; !known {
			panic("unknown field " + k)
		}
		fields[k] = v
	}
	var parts []string
	if fields["payment"] != "" {
		parts = append(parts, "payment="+fields["payment"])
	}
	for _, k := range notationFields {
		parts = append(parts, k+"="+fields[k])
	}
	return strings.Join(parts, " ")
}

// next is the override list of a turn handed to seat 1 after turn 0.
var next = []string{"seat=1", "turn=1"}

// with appends overrides to a shared list without aliasing it.
func with(base []string, more ...string) []string {
	return append(append([]string{}, base...), more...)
}

func mustParse(t *testing.T, text string) duel.State {
	t.Helper()
	s, err := duel.Parse(text)
	require.NoError(t, err, text)
	return s
}

// play applies actions by label, failing the test on the first error.
func play(t *testing.T, s *duel.State, labels ...string) {
	t.Helper()
	for _, l := range labels {
		i, err := duel.ParseAction(l)
		require.NoError(t, err)
		require.NoError(t, s.Apply(i), "%s in %s", l, s)
	}
}

// legalLabels lists the labels of the legal actions in index order.
func legalLabels(s *duel.State) []string {
	var m duel.ActionSet
	s.Legal(&m)
	labels := []string{}
	for i := 0; i < duel.NumActions; i++ {
		if m.Has(i) {
			labels = append(labels, duel.Label(i))
		}
	}
	return labels
}

// assertRefused checks that the action labelled label is an error that
// leaves the state exactly as it was.
func assertRefused(t *testing.T, s duel.State, label string) {
	t.Helper()
	i, err := duel.ParseAction(label)
	require.NoError(t, err)
	before := s
	err = s.Apply(i)
	assert.ErrorIs(t, err, duel.ErrIllegal, label)
	assert.Equal(t, before, s, "a refused %q changed the state", label)
}

type ruleCase struct {
	name    string
	before  string
	actions []string
	after   string
}

// runRuleCases plays each case's actions and compares the whole resulting
// state with the expected one.
func runRuleCases(t *testing.T, cases []ruleCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := mustParse(t, tc.before)
			play(t, &s, tc.actions...)
			assert.Equal(t, mustParse(t, tc.after).String(), s.String())
		})
	}
}

type legalCase struct {
	name, before string
	legal        []string
	illegal      []string
}

// runLegalCases checks that each legal label is in the mask and each illegal
// one is neither in the mask nor accepted by Apply.
func runLegalCases(t *testing.T, cases []legalCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := mustParse(t, tc.before)
			legal := legalLabels(&s)
			for _, l := range tc.legal {
				assert.Contains(t, legal, l)
			}
			for _, l := range tc.illegal {
				assert.NotContains(t, legal, l)
				assertRefused(t, s, l)
			}
		})
	}
}
