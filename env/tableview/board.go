package tableview

import (
	"fmt"
	"strings"
)

// Letters spell the five gem colours on a text board, in the engines'
// order: white, blue (U, as B could be black), green, red, black (K).
const Letters = "WUGRK"

// String spells every colour's count: "W4 U3 G5 R2 K2".
func (g Gems) String() string {
	parts := make([]string, 0, 5)
	for k, n := range g.Counts() {
		parts = append(parts, fmt.Sprintf("%c%d", Letters[k], n))
	}
	return strings.Join(parts, " ")
}

// Cost spells the non-zero counts of a cost whose kinds are spelt by
// letters ("W3 G2"), or "free".
func Cost(counts []uint8, letters string) string {
	var parts []string
	for k, n := range counts {
		if n > 0 {
			parts = append(parts, fmt.Sprintf("%c%d", letters[k], n))
		}
	}
	if parts == nil {
		return "free"
	}
	return strings.Join(parts, " ")
}

// Board builds a text board line by line.
type Board struct{ strings.Builder }

// Line writes one line: a label padded to a column, then its text.
func (b *Board) Line(label, format string, args ...any) {
	fmt.Fprintf(b, "%-10s%s\n", label, fmt.Sprintf(format, args...))
}

// HandText spells a seat's reserved cards, card spelling a visible one.
func HandText(reserved []Reserved, card func(id int) string) string {
	if len(reserved) == 0 {
		return "-"
	}
	parts := make([]string, len(reserved))
	for i, r := range reserved {
		switch {
		case r.Card == nil:
			parts[i] = fmt.Sprintf("[level %d, face down]", *r.Level)
		case r.Hidden:
			parts[i] = card(*r.Card) + " (blind)"
		default:
			parts[i] = card(*r.Card)
		}
	}
	return strings.Join(parts, " ")
}

// Marker points at the seat to act.
func Marker(seat, toAct int) string {
	if seat == toAct {
		return ">"
	}
	return " "
}

// Row spells a row of face-up card slots, numbered from 1 as action labels
// number them ("buy L2 slot3"), card spelling each card.
func Row(slots []*int, card func(id int) string) string {
	parts := make([]string, len(slots))
	for k, c := range slots {
		parts[k] = fmt.Sprintf("%d [empty]", k+1)
		if c != nil {
			parts[k] = fmt.Sprintf("%d %s", k+1, card(*c))
		}
	}
	return strings.Join(parts, "  ")
}
