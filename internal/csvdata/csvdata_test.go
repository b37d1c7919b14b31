package csvdata

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

const table = `points,ability
3,none
2,steal
`

func TestRowsSplitsTheDataLines(t *testing.T) {
	rows := Rows(table, "points,ability", 2)
	assert.Equal(t, []Row{{"3", "none"}, {"2", "steal"}}, rows)
	assert.Equal(t, 2, rows[1].Int(0))
}

// The tables ship inside the binary: a mismatch is a build defect and must
// stop the program at start-up rather than deal wrong cards.
func TestMalformedDataPanics(t *testing.T) {
	assert.Panics(t, func() { Rows(table, "points,bonus", 2) }, "other header")
	assert.Panics(t, func() { Rows(table, "points,ability", 3) }, "missing line")
	assert.Panics(t, func() { Rows(table, "points,ability", 1) }, "extra line")
	assert.Panics(t, func() { Row{"x"}.Int(0) }, "not a number")
}
