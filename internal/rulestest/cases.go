package rulestest

import (
	"errors"
	"maps"
	"slices"
	"strings"
	"testing"
)

// Position writes states in an engine's notation from a base layout and
// overrides, so that each case states only the fields that matter.
type Position struct {
	Order []string          // the fields, in the notation's order
	Base  map[string]string // every field's value; "" leaves it out
	// Omit, if set, also leaves out field key of the text being written.
	Omit func(fields map[string]string, key string) bool
}

// Text writes Base with overrides given as "key=value".
func (p *Position) Text(overrides ...string) string {
	fields := maps.Clone(p.Base)
	for _, o := range overrides {
		k, v, ok := strings.Cut(o, "=")
		if !ok {
			panic("override without '=': " + o)
		}
		if _, known := fields[k]; !known {
			panic("unknown field " + k)
		}
		fields[k] = v
	}
	var parts []string
	for _, k := range p.Order {
		if fields[k] != "" && (p.Omit == nil || !p.Omit(fields, k)) {
			parts = append(parts, k+"="+fields[k])
		}
	}
	return strings.Join(parts, " ")
}

// With appends overrides to a shared list without aliasing it.
func With(base []string, more ...string) []string {
	return append(slices.Clone(base), more...)
}

// RuleCase is a scripted rule: the state before, the actions by label, and
// the whole state after. An engine's tests define their own type from it
// (type ruleCase rulestest.RuleCase), so that vet lets their tables leave
// out the field names, as it does only for local types.
type RuleCase ruleFields

// ruleFields is RuleCase's struct, named so that RunRuleCases takes any
// type defined from it.
type ruleFields = struct {
	Name    string
	Before  string
	Actions []string
	After   string
}

// RunRuleCases plays each case's actions and compares the whole resulting
// state with the expected one.
func RunRuleCases[C ~ruleFields, S, M comparable, PS State[S, M], PM ActionSet[M]](t *testing.T, e *Engine[S, M, PS, PM], cases []C) {
	t.Helper()
	for _, c := range cases {
		tc := RuleCase(c)
		e.run(t, tc.Name, tc.Before, func(t *testing.T, s S) {
			e.Play(t, &s, tc.Actions...)
			after := e.MustParse(t, tc.After)
			if got, want := PS(&s).String(), PS(&after).String(); got != want {
				t.Errorf("after %v:\ngot  %s\nwant %s", tc.Actions, got, want)
			}
		})
	}
}

// LegalCase names actions that must be legal in a state and actions that
// must not be; tests define their own type from it, as from RuleCase.
type LegalCase legalFields

// legalFields is LegalCase's struct, as ruleFields is RuleCase's.
type legalFields = struct {
	Name, Before string
	Legal        []string
	Illegal      []string
}

// RunLegalCases checks that each legal label is in the mask and each illegal
// one is neither in the mask nor accepted by Apply.
func RunLegalCases[C ~legalFields, S, M comparable, PS State[S, M], PM ActionSet[M]](t *testing.T, e *Engine[S, M, PS, PM], cases []C) {
	t.Helper()
	for _, c := range cases {
		tc := LegalCase(c)
		e.run(t, tc.Name, tc.Before, func(t *testing.T, s S) {
			legal := e.LegalLabels(&s)
			for _, l := range tc.Legal {
				if !slices.Contains(legal, l) {
					t.Errorf("%q is not legal: %v", l, legal)
				}
			}
			for _, l := range tc.Illegal {
				if slices.Contains(legal, l) {
					t.Errorf("%q is legal: %v", l, legal)
				}
				e.AssertRefused(t, s, l)
			}
		})
	}
}

// run runs test as the subtest name, on the state before is the notation of.
func (e *Engine[S, M, PS, PM]) run(t *testing.T, name, before string, test func(t *testing.T, s S)) {
	t.Run(name, func(t *testing.T) { test(t, e.MustParse(t, before)) })
}

// AssertRefused checks that the action labelled label is an error that
// leaves the state exactly as it was.
func (e *Engine[S, M, PS, PM]) AssertRefused(t testing.TB, s S, label string) {
	t.Helper()
	before := s
	err := PS(&s).Apply(e.Index(t, label))
	if !errors.Is(err, e.ErrIllegal) {
		t.Errorf("%q: Apply = %v, want %v", label, err, e.ErrIllegal)
	}
	if s != before {
		t.Errorf("a refused %q changed the state:\nbefore %s\nafter  %s", label, PS(&before), PS(&s))
	}
}

// RefusesNotation checks that Parse refuses each text, by its name, and the
// texts every game refuses, made from valid (a text Parse accepts): the
// empty text, valid with an unknown field after it, and valid without each
// one of its fields.
func (e *Engine[S, M, PS, PM]) RefusesNotation(t *testing.T, valid string, bad map[string]string) {
	t.Helper()
	if _, err := e.Parse(valid); err != nil {
		t.Fatalf("Parse(%q) = %v, want a valid text", valid, err)
	}
	bad = maps.Clone(bad)
	bad["empty"], bad["extra field"] = "", valid+" extra=1"
	fields := strings.Fields(valid)
	for i, f := range fields {
		bad["without "+f] = strings.Join(slices.Delete(slices.Clone(fields), i, i+1), " ")
	}
	for name, text := range bad {
		if _, err := e.Parse(text); !errors.Is(err, e.ErrNotation) {
			t.Errorf("%s: Parse(%q) = %v, want %v", name, text, err, e.ErrNotation)
		}
	}
}

// ReadsBack checks that Parse reads s's notation back to s.
func (e *Engine[S, M, PS, PM]) ReadsBack(t testing.TB, s S) {
	t.Helper()
	text := PS(&s).String()
	back, err := e.Parse(text)
	if err != nil {
		t.Fatalf("Parse(%q): %v", text, err)
	}
	if back != s {
		t.Fatalf("Parse(String()) differs from the live state %s:\n%s", text, PS(&back))
	}
}
