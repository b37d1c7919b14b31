package duel_test

import (
	"testing"

	"github.com/splendor-rl/splendor/env/duel"
	"github.com/stretchr/testify/assert"
)

func TestParseRefusesMalformedNotation(t *testing.T) {
	engine.RefusesNotation(t, pos(), map[string]string{
		"seat out of range":                     pos("seat=2"),
		"unknown phase":                         pos("phase=lunch"),
		"three passes":                          pos("passes=3"),
		"chance not hex":                        pos("chance=000000000000000g"),
		"chance too short":                      pos("chance=1"),
		"token not a digit":                     pos("bag=000000x"),
		"six token kinds":                       pos("bag=000000"),
		"four board rows":                       pos("board=wbgrk/bgrkw/growb/rkwpg"),
		"six cells in a row":                    pos("board=wbgrkw/bgrkw/growb/rkwpg/okbpo"),
		"unknown token":                         pos("board=wbgrk/bgrkw/grxwb/rkwpg/okbpo"),
		"card twice":                            pos("p0=0000000|0|0|-|-"),
		"level-2 card in the level-1 row":       pos("pyramid=30.5.10.15.20/0.34.38.42/60.61.62"),
		"four level-1 slots":                    pos("pyramid=0.5.10.15/30.34.38.42/60.61.62"),
		"card id too large":                     pos("decks=6.7.67/35/63"),
		"four reserved":                         pos("p0=0000000|0|-|1.2.3.4|-"),
		"royal twice":                           pos("p0=0000000|0|-|-|1", "p1=0000000|1|-|-|1"),
		"royal id too large":                    pos("p0=0000000|0|-|-|4"),
		"seat without its parts":                pos("p1=0000000|1|-|-"),
		"four privileges":                       pos("p0=0000000|3|-|-|-"),
		"joker without a colour":                pos("p0=0000000|0|9.25|-|-"),
		"colour on a card that is not a joker":  pos("p0=0000000|0|9b|-|-"),
		"joker coloured pearl":                  pos("p0=0000000|0|9.25p|-|-"),
		"pending outside joker and token":       pos("pending=9", "p0=0000000|0|9|-|-"),
		"phase joker without pending":           pos("phase=joker", "p0=0000000|0|4.9|-|-"),
		"pending card not bought":               pos("phase=joker", "pending=25", "p0=0000000|0|4.9|-|-"),
		"joker phase with one colour":           pos("phase=joker", "pending=25", "p0=0000000|0|9.25|-|-"),
		"token phase for a card without it":     pos("phase=token", "pending=9", "p0=0000000|0|9|-|-"),
		"return with 10 tokens":                 pos("phase=return", "p0=3322000|0|-|-|-"),
		"steal from one kind":                   pos("phase=steal", "p1=2000000|1|-|-|-"),
		"royal without crowns":                  pos("phase=royal"),
		"reserve with three reserved":           pos("phase=reserve", "p0=0000000|0|-|1.2.3|-"),
		"over without a winner":                 pos("phase=over"),
		"pay in the standard game":              pos("phase=pay", "pending=0:011110", "p0=0111101|0|-|-|-"),
		"pay without gold":                      pos(choose, "phase=pay", "pending=0:011110", "p0=0111100|0|-|-|-"),
		"pay due more than held":                pos(choose, "phase=pay", "pending=0:021110", "p0=0111101|0|-|-|-"),
		"pay due more than the cost":            pos(choose, "phase=pay", "pending=0:020000", "p0=0211101|0|-|-|-"),
		"pay with nothing due":                  pos(choose, "phase=pay", "pending=0:000000", "p0=0111101|0|-|-|-"),
		"pay without what is due":               pos(choose, "phase=pay", "pending=0", "p0=0111101|0|-|-|-"),
		"due outside phase pay":                 pos(choose, "phase=joker", "pending=25:300010", "p0=0000000|0|4.9.25|-|-"),
		"card paid for already bought":          pos(choose, "phase=pay", "pending=9:000230", "p0=0002301|0|9|-|-"),
		"card paid for still in the pyramid":    pos(choose, "phase=pay", "pending=0:011110", "p0=0111101|0|-|-|-"),
		"payment=auto is not written":           "payment=auto " + pos(),
		"an empty slot beside its deck in main": pos("pyramid=-.5.10.15.20/30.34.38.42/60.61.62"),
		"two slots waiting for a refill": pos("phase=return", "pyramid=-.-.10.15.20/30.34.38.42/60.61.62",
			"p0=4322000|0|-|-|-"),
	})
}

func TestParseAcceptsEveryPhase(t *testing.T) {
	good := map[string]string{
		"reserve": pos("phase=reserve", "board=wbgrk/bgrkw/gr.wb/rkwpg/okbpo", "p0=0000001|0|-|-|-"),
		"joker":   pos("phase=joker", "pending=25", "p0=0000000|0|4.9.25|-|-"),
		"token":   pos("phase=token", "pending=2", "p0=0000000|0|2|-|-"),
		"steal":   pos("phase=steal", "p1=1000010|1|-|-|-"),
		"royal":   pos("phase=royal", "p0=0000000|0|3.13.23|-|-"),
		"return":  pos("phase=return", "p0=4322000|0|-|-|-"),
		"won":     pos("phase=over", "p0=0000000|0|4.19.29.53.57.66|-|-"),
		"blocked": pos("phase=over", "passes=2"),
		"pay": pos(choose, "phase=pay", "pending=0:011110", "pyramid=-.5.10.15.20/30.34.38.42/60.61.62",
			"p0=0111101|0|-|-|-"),
		"pay a reserved card": pos(choose, "phase=pay", "pending=29:000301", "p0=0003011|0|-|*23|-"),
		"variant":             pos(choose),
		"refill waiting":      pos("phase=return", "pyramid=-.5.10.15.20/30.34.38.42/60.61.62", "p0=4322000|0|-|-|-"),
	}
	for name, text := range good {
		s, err := duel.Parse(text)
		if assert.NoError(t, err, name) {
			assert.Equal(t, text, s.String(), name)
		}
	}
}

func TestNotationOfADealtGame(t *testing.T) { engine.ReadsBack(t, duel.New(7)) }

func TestParseDerivesScores(t *testing.T) {
	s := engine.MustParse(t, pos("p0=0000000|0|31.25w.54.64b|-|1.3"))
	p := &s.Players[0]
	assert.Equal(t, [duel.NumColours]uint8{4, 1, 0, 0, 0}, p.Bonus, "31 gives two, 25 and 54 one each; 64 is blue")
	assert.Equal(t, [duel.NumColours]uint8{4, 0, 0, 0, 0}, p.ColourPoints)
	assert.Equal(t, uint8(1+0+3+0+2+3), p.Points, "cards and royals")
	assert.Equal(t, uint8(0+1+2+3), p.Crowns)
	assert.Equal(t, duel.White, s.JokerColour[duel.Card(25).JokerOrdinal()])
	assert.Equal(t, duel.NoGem, s.JokerColour[duel.Card(26).JokerOrdinal()])
}
