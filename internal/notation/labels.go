package notation

import (
	"fmt"
	"slices"
)

// The labels of the actions every game has, spelled alike so that a player
// of both reads them alike; levels and slots are 1-based, as players say
// them.
const (
	PassLabel    = "pass"
	PayDoneLabel = "pay done"
	// InvalidAction spells an Action value that has no index.
	InvalidAction = "invalid action"
)

// ReserveLabel is reserving the card in a level's slot.
func ReserveLabel(level, slot uint8) string {
	return fmt.Sprintf("reserve L%d slot%d", level+1, slot+1)
}

// ReserveTopLabel is reserving the top of a level's deck.
func ReserveTopLabel(level uint8) string { return fmt.Sprintf("reserve L%d deck", level+1) }

// BuyLabel is buying the card in a level's slot.
func BuyLabel(level, slot uint8) string { return fmt.Sprintf("buy L%d slot%d", level+1, slot+1) }

// BuyReservedLabel is buying the card in a reserve slot.
func BuyReservedLabel(slot uint8) string { return fmt.Sprintf("buy reserved%d", slot+1) }

// ReturnLabel is returning a token of the named kind.
func ReturnLabel(kind fmt.Stringer) string { return "return " + kind.String() }

// PayGoldLabel is paying with gold for a token of the named kind.
func PayGoldLabel(kind fmt.Stringer) string { return "pay gold for " + kind.String() }

// Spell is the label of action a in an engine's action table and labels,
// or InvalidAction when the table does not hold it.
func Spell[A comparable](table []A, labels []string, a A) string {
	if i, ok := IndexOf(table, a); ok {
		return labels[i]
	}
	return InvalidAction
}

// FindLabel returns the index whose label is label; game names the engine
// in the error.
func FindLabel(labels []string, label, game string) (int, error) {
	if i := slices.Index(labels, label); i >= 0 {
		return i, nil
	}
	return 0, fmt.Errorf("%s: no action labelled %q", game, label)
}

// IndexOf is the index of action a in an engine's action table; ok is false
// when the table does not hold it (a malformed Action value). The table is
// the one place that pairs an index with its action, so this inverse cannot
// drift from it.
func IndexOf[A comparable](table []A, a A) (i int, ok bool) {
	i = slices.Index(table, a)
	return i, i >= 0
}

// Illegal is the error an engine's Apply returns for action index i, which
// it refuses in phase: err (the engine's ErrIllegal) with the index when it
// is outside the action space, else with its label.
func Illegal(err error, labels []string, i int, phase fmt.Stringer) error {
	if i < 0 || i >= len(labels) {
		return fmt.Errorf("%w: index %d outside [0,%d)", err, i, len(labels))
	}
	return fmt.Errorf("%w: %q in phase %s", err, labels[i], phase)
}
