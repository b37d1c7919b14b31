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

// LabelOf is labels[i] when ok (an Action's index was found), else
// InvalidAction.
func LabelOf(labels []string, i int, ok bool) string {
	if ok {
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
