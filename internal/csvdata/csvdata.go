// Package csvdata reads the component tables (cards, nobles, royals…) that
// the rules engines embed as small CSV files. The files ship inside the
// binary, so a malformed one is a build defect, not an input error: every
// function here panics at start-up instead of returning an error.
package csvdata

import (
	"fmt"
	"strconv"
	"strings"
)

// Row is one line of a table, split at its commas.
type Row []string

// Rows checks that text starts with exactly header and has want data lines,
// and splits those lines.
func Rows(text, header string, want int) []Row {
	lines := strings.Split(strings.TrimSpace(text), "\n")
	if lines[0] != header || len(lines)-1 != want {
		panic(fmt.Sprintf("csvdata: component data %q malformed", header))
	}
	rows := make([]Row, 0, want)
	for _, l := range lines[1:] {
		rows = append(rows, strings.Split(l, ","))
	}
	return rows
}

// Int is column i as a decimal integer.
func (r Row) Int(i int) int {
	n, err := strconv.Atoi(r[i])
	if err != nil {
		panic("csvdata: component data: " + err.Error())
	}
	return n
}
