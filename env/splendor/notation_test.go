package splendor_test

import (
	"testing"

	"github.com/splendor-rl/splendor/env/splendor"
	"github.com/stretchr/testify/assert"
)

func TestParseRefusesMalformedNotation(t *testing.T) {
	bad := map[string]string{
		"empty":                  "",
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
		"extra field":            pos() + " extra=1",
		"return with 10 tokens":  pos("phase=return", "p0=222220|-|-|-"),
		"noble with no choice":   pos("phase=noble"),
	}
	for name, text := range bad {
		_, err := splendor.Parse(text)
		assert.ErrorIs(t, err, splendor.ErrNotation, name)
	}
}

func TestNotationOfADealtGame(t *testing.T) {
	s, _ := splendor.New(3, 7)
	parsed, err := splendor.Parse(s.String())
	assert.NoError(t, err)
	assert.Equal(t, s, parsed)
}
