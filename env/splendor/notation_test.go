package splendor_test

import (
	"testing"

	"github.com/splendor-rl/splendor/env/splendor"
	"github.com/stretchr/testify/assert"
)

func TestParseRefusesMalformedNotation(t *testing.T) {
	engine.RefusesNotation(t, pos(), map[string]string{
		"five players":           pos("players=5"),
		"seat out of range":      pos("seat=2"),
		"seat past every player": pos("seat=4"),
		"unknown phase":          pos("phase=lunch"),
		"token not a digit":      pos("bank=44444x"),
		"five token kinds":       pos("bank=44444"),
		"card twice":             pos("p0=000000|0|-|-"),
		"level-2 card in row 1":  pos("market=40.24.36.22/0.41.42.43/70.71.72.73"),
		"card id too large":      pos("decks=5.90/46/74"),
		"two levels of market":   pos("market=0.24.36.22/40.41.42.43"),
		"four reserved":          pos("p0=000000|-|1.2.3.4|-"),
		"noble twice":            pos("p0=000000|-|-|0"),
		"four noble slots":       pos("nobles=0.1.2.-"),
		"seat without its parts": pos("p1=000000|-|-"),
		"return with 10 tokens":  pos("phase=return", "p0=222220|-|-|-"),
		"noble with no choice":   pos("phase=noble"),
		"payment=auto":           "payment=auto " + pos(),
		"payment not first":      pos() + " payment=choose",
		"pay without the choice": pos(paying1, "phase=pay", "buying=1:03000", "p0=030001|-|-|-"),
		"pay without buying":     choosing(paying1, "phase=pay", "p0=030001|-|-|-"),
		"buying outside pay":     choosing(paying1, "buying=1:03000", "p0=030001|-|-|-"),
		"buying not after phase": choosing(paying1, "phase=pay", "p0=030001|-|-|-") + " buying=1:03000",
		"buying no card":         choosing(paying1, "phase=pay", "buying=-:03000", "p0=030001|-|-|-"),
		"buying a market card":   choosing("phase=pay", "buying=24:03000", "p0=030001|-|-|-"),
		"due of four colours":    choosing(paying1, "phase=pay", "buying=1:0300", "p0=030001|-|-|-"),
		"more due than held":     choosing(paying1, "phase=pay", "buying=1:03000", "p0=020001|-|-|-"),
		"pay without gold":       choosing(paying1, "phase=pay", "buying=1:03000", "p0=030000|-|-|-"),
		"pay with nothing due":   choosing(paying1, "phase=pay", "buying=1:00000", "p0=030001|-|-|-"),
	})
}

// A payment in progress is written in full and read back exactly: the rule,
// the card being paid for and what is still due.
func TestNotationOfAPayment(t *testing.T) {
	text := choosing(paying1, "phase=pay", "buying=1:03000", "p0=030001|-|-|-")
	s := engine.MustParse(t, text)
	assert.True(t, s.ChoosePayment)
	assert.Equal(t, splendor.PhasePay, s.Phase)
	assert.Equal(t, splendor.Card(1), s.Buying)
	assert.Equal(t, [splendor.NumColours]uint8{0, 3, 0, 0, 0}, s.Due)
	assert.Equal(t, text, s.String())
	assert.Equal(t, splendor.NoCard, engine.MustParse(t, choosing()).Buying, "no card is being bought outside phase pay")
}

func TestNotationOfADealtGame(t *testing.T) {
	s, _ := splendor.New(3, 7)
	engine.ReadsBack(t, s)
}
