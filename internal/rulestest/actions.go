package rulestest

import (
	"errors"
	"testing"
)

// Action is what the kit needs of an engine's Action.
type Action interface {
	Index() (int, bool)
	String() string
}

// ActionTable holds an engine's action space to its promise: ActionAt and
// Index are inverse, every index has a unique label that ParseAction reads
// back and that Action.String spells, and each index in layout has its
// documented label (trained policies depend on the layout).
func ActionTable[A Action](t *testing.T, n int, actionAt func(int) A, label func(int) string,
	parse func(string) (int, error), layout map[int]string) {
	seen := map[string]int{}
	for i := 0; i < n; i++ {
		a := actionAt(i)
		l := label(i)
		if j, ok := a.Index(); !ok || j != i {
			t.Fatalf("ActionAt(%d).Index() = %d, %v", i, j, ok)
		}
		if k, dup := seen[l]; dup {
			t.Fatalf("label %q used by %d and %d", l, k, i)
		}
		seen[l] = i
		if j, err := parse(l); err != nil || j != i || a.String() != l {
			t.Fatalf("index %d: ParseAction(%q) = %d, %v; String %q", i, l, j, err, a.String())
		}
	}
	for i, want := range layout {
		if got := label(i); got != want {
			t.Errorf("index %d: label %q, want %q", i, got, want)
		}
	}
}

// NoIndex checks that malformed actions have no index and spell
// "invalid action", and that ParseAction refuses the bad labels.
func NoIndex[A Action](t *testing.T, bad []A, parse func(string) (int, error), badLabels ...string) {
	for _, a := range bad {
		if i, ok := a.Index(); ok {
			t.Errorf("%+v has index %d", a, i)
		}
		if a.String() != "invalid action" {
			t.Errorf("%+v spells %q", a, a.String())
		}
	}
	for _, l := range badLabels {
		if _, err := parse(l); err == nil {
			t.Errorf("ParseAction(%q) succeeded", l)
		}
	}
}

// RefusesOutOfRange checks that Apply refuses indices outside the action
// space without a change.
func (e *Engine[S, M, PS, PM]) RefusesOutOfRange(t *testing.T, s S) {
	for _, i := range []int{-1, e.NumActions, 1000} {
		before := s
		if err := PS(&s).Apply(i); !errors.Is(err, e.ErrIllegal) || s != before {
			t.Errorf("Apply(%d) = %v, state changed %v", i, err, s != before)
		}
	}
}

// SetNth checks the action set's Add, Len and Nth on members, given in
// increasing order.
func (e *Engine[S, M, PS, PM]) SetNth(t *testing.T, members ...int) {
	var m M
	for _, i := range members {
		PM(&m).Add(i)
	}
	if PM(&m).Len() != len(members) {
		t.Errorf("Len %d, want %d", PM(&m).Len(), len(members))
	}
	for k, i := range append(members, -1) {
		if got := PM(&m).Nth(k); got != i {
			t.Errorf("Nth(%d) = %d, want %d", k, got, i)
		}
	}
}
