package bots

import (
	"fmt"
	"regexp"
	"slices"
	"sync/atomic"
)

// MaxEditions bounds the named editions of the baseline networks that one
// server plays at once (Spec.Edition is a byte; a game keeps a slot per
// edition and table size).
const MaxEditions = 15

// editionName is what an edition may be called: "2026-11-26", "az-long".
var editionName = regexp.MustCompile(`^[a-z0-9][a-z0-9.-]{0,39}$`)

// editions are the named editions loaded, sorted: Spec.Edition k is
// editions[k-1]. The server sets them once it has read its networks
// (env.SetBaselines), before any client names one.
var editions atomic.Pointer[[]string]

// Editions lists the named editions loaded, sorted.
func Editions() []string {
	if e := editions.Load(); e != nil {
		return *e
	}
	return nil
}

// SetEditions makes names (sorted, distinct, valid) the named editions;
// it returns the Spec.Edition of each name.
func SetEditions(names []string) (map[string]uint8, error) {
	if len(names) > MaxEditions {
		return nil, fmt.Errorf("%d named editions of the baselines, at most %d", len(names), MaxEditions)
	}
	names = slices.Clone(names)
	slices.Sort(names)
	names = slices.Compact(names)
	index := make(map[string]uint8, len(names))
	for i, n := range names {
		if !editionName.MatchString(n) {
			return nil, fmt.Errorf("edition %q: want lower-case letters, digits, dots and dashes", n)
		}
		index[n] = uint8(i + 1)
	}
	editions.Store(&names)
	return index, nil
}

// editionOf is name's Spec.Edition.
func editionOf(name string) (uint8, bool) {
	i := slices.Index(Editions(), name)
	return uint8(i + 1), i >= 0
}
