package duel_test

import (
	"testing"

	"github.com/splendor-rl/splendor/env/duel"
	"github.com/stretchr/testify/assert"
)

func TestParseRefusesMalformedNotation(t *testing.T) {
	bad := map[string]string{}
	for name, overrides := range map[string][]string{
		"seat out of range":                     {"seat=2"},
		"unknown phase":                         {"phase=lunch"},
		"three passes":                          {"passes=3"},
		"chance not hex":                        {"chance=000000000000000g"},
		"chance too short":                      {"chance=1"},
		"token not a digit":                     {"bag=000000x"},
		"six token kinds":                       {"bag=000000"},
		"four board rows":                       {"board=wbgrk/bgrkw/growb/rkwpg"},
		"six cells in a row":                    {"board=wbgrkw/bgrkw/growb/rkwpg/okbpo"},
		"unknown token":                         {"board=wbgrk/bgrkw/grxwb/rkwpg/okbpo"},
		"card twice":                            {"p0=0000000|0|0|-|-"},
		"level-2 card in the level-1 row":       {"pyramid=30.5.10.15.20/0.34.38.42/60.61.62"},
		"four level-1 slots":                    {"pyramid=0.5.10.15/30.34.38.42/60.61.62"},
		"card id too large":                     {"decks=6.7.67/35/63"},
		"four reserved":                         {"p0=0000000|0|-|1.2.3.4|-"},
		"royal twice":                           {"p0=0000000|0|-|-|1", "p1=0000000|1|-|-|1"},
		"royal id too large":                    {"p0=0000000|0|-|-|4"},
		"seat without its parts":                {"p1=0000000|1|-|-"},
		"four privileges":                       {"p0=0000000|3|-|-|-"},
		"joker without a colour":                {"p0=0000000|0|9.25|-|-"},
		"colour on a card that is not a joker":  {"p0=0000000|0|9b|-|-"},
		"joker coloured pearl":                  {"p0=0000000|0|9.25p|-|-"},
		"pending outside joker and token":       {"pending=9", "p0=0000000|0|9|-|-"},
		"phase joker without pending":           {"phase=joker", "p0=0000000|0|4.9|-|-"},
		"pending card not bought":               {"phase=joker", "pending=25", "p0=0000000|0|4.9|-|-"},
		"joker phase with one colour":           {"phase=joker", "pending=25", "p0=0000000|0|9.25|-|-"},
		"token phase for a card without it":     {"phase=token", "pending=9", "p0=0000000|0|9|-|-"},
		"return with 10 tokens":                 {"phase=return", "p0=3322000|0|-|-|-"},
		"steal from one kind":                   {"phase=steal", "p1=2000000|1|-|-|-"},
		"royal without crowns":                  {"phase=royal"},
		"reserve with three reserved":           {"phase=reserve", "p0=0000000|0|-|1.2.3|-"},
		"over without a winner":                 {"phase=over"},
		"pay in the standard game":              {"phase=pay", "pending=0:011110", "p0=0111101|0|-|-|-"},
		"pay without gold":                      {choose, "phase=pay", "pending=0:011110", "p0=0111100|0|-|-|-"},
		"pay due more than held":                {choose, "phase=pay", "pending=0:021110", "p0=0111101|0|-|-|-"},
		"pay due more than the cost":            {choose, "phase=pay", "pending=0:020000", "p0=0211101|0|-|-|-"},
		"pay with nothing due":                  {choose, "phase=pay", "pending=0:000000", "p0=0111101|0|-|-|-"},
		"pay without what is due":               {choose, "phase=pay", "pending=0", "p0=0111101|0|-|-|-"},
		"due outside phase pay":                 {choose, "phase=joker", "pending=25:300010", "p0=0000000|0|4.9.25|-|-"},
		"card paid for already bought":          {choose, "phase=pay", "pending=9:000230", "p0=0002301|0|9|-|-"},
		"card paid for still in the pyramid":    {choose, "phase=pay", "pending=0:011110", "p0=0111101|0|-|-|-"},
		"payment=auto is not written":           {"payment=auto"},
		"an empty slot beside its deck in main": {"pyramid=-.5.10.15.20/30.34.38.42/60.61.62"},
		"two slots waiting for a refill":        {"phase=return", "pyramid=-.-.10.15.20/30.34.38.42/60.61.62", "p0=4322000|0|-|-|-"},
	} {
		bad[name] = pos(overrides...)
	}
	engine.RefusesNotation(t, pos(), bad)
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
