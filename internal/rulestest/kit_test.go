package rulestest

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/splendor-rl/splendor/internal/rng"
)

// The kit's own tests play a toy game, counter: the seat adds 1 or 2 until
// the count reaches 5 ("n=3"). A kit function that ran no case or let a
// wrong case pass would leave every engine test green, so they check that
// cases run and that wrong ones fail.
type counter struct{ N uint8 }

type moves [1]uint64

func (m *moves) Add(i int)      { m[0] |= 1 << i }
func (m *moves) Has(i int) bool { return m[0]&(1<<i) != 0 }
func (m *moves) Len() int       { return int(m[0]&1 + m[0]>>1&1) }

func (m *moves) Nth(k int) int {
	for i := 0; i < 2; i++ {
		if m.Has(i) {
			if k == 0 {
				return i
			}
			k--
		}
	}
	return -1
}

var errIllegal, errNotation = errors.New("illegal"), errors.New("notation")

func (s *counter) Legal(m *moves) {
	*m = moves{}
	for i := 0; i < 2 && int(s.N)+i < 5; i++ {
		m.Add(i)
	}
}

func (s *counter) Apply(i int) error {
	var m moves
	if s.Legal(&m); i < 0 || i > 1 || !m.Has(i) {
		return errIllegal
	}
	s.N += uint8(i) + 1
	return nil
}

func (s *counter) Over() bool                   { return s.N >= 5 }
func (s *counter) Check() error                 { return nil }
func (s *counter) Redeal(seat int, r *rng.Rand) {}
func (s *counter) String() string               { return fmt.Sprintf("n=%d", s.N) }

var labels = []string{"add 1", "add 2"}

// toy is the kit bound to counter; parsed counts the texts it parsed.
func toy(parsed *int) *Engine[counter, moves, *counter, *moves] {
	return &Engine[counter, moves, *counter, *moves]{
		NumActions: 2, Label: func(i int) string { return labels[i] }, ErrIllegal: errIllegal, ErrNotation: errNotation,
		Parse: func(text string) (s counter, err error) {
			*parsed++
			if _, err := fmt.Sscanf(text, "n=%d", &s.N); err != nil {
				return s, errNotation
			}
			return s, nil
		},
		ParseAction: func(label string) (int, error) {
			for i, l := range labels {
				if l == label {
					return i, nil
				}
			}
			return 0, errIllegal
		},
	}
}

var rightCases = []RuleCase{{"one", "n=0", []string{"add 1"}, "n=1"}, {"two then one", "n=1", []string{"add 2", "add 1"}, "n=4"}}

func TestCasesRun(t *testing.T) {
	parsed := 0
	RunRuleCases(t, toy(&parsed), rightCases)
	RunLegalCases(t, toy(&parsed), []LegalCase{{"near the end", "n=4", []string{"add 1"}, []string{"add 2"}}})
	if want := 2*len(rightCases) + 1; parsed != want {
		t.Errorf("the cases parsed %d texts, want %d: a case did not run", parsed, want)
	}
}

// wrongCases each hold a mistake the kit must report; a child process runs
// them, since a failed test cannot be caught in the test itself.
var wrongCases = map[string]func(t *testing.T, e *Engine[counter, moves, *counter, *moves]){
	"wrong state after": func(t *testing.T, e *Engine[counter, moves, *counter, *moves]) {
		RunRuleCases(t, e, []RuleCase{{"off by one", "n=0", []string{"add 1"}, "n=2"}})
	},
	"illegal said legal": func(t *testing.T, e *Engine[counter, moves, *counter, *moves]) {
		RunLegalCases(t, e, []LegalCase{{"past 5", "n=4", []string{"add 2"}, nil}})
	},
	"legal said illegal": func(t *testing.T, e *Engine[counter, moves, *counter, *moves]) {
		RunLegalCases(t, e, []LegalCase{{"add 1 is legal", "n=0", nil, []string{"add 1"}}})
	},
	"text Parse accepts": func(t *testing.T, e *Engine[counter, moves, *counter, *moves]) {
		e.RefusesNotation(t, "n=1", map[string]string{"fine": "n=2"})
	},
}

func TestWrongCasesFail(t *testing.T) {
	if name := os.Getenv("RULESTEST_WRONG_CASE"); name != "" {
		parsed := 0
		wrongCases[name](t, toy(&parsed))
		return
	}
	for name := range wrongCases {
		cmd := exec.Command(os.Args[0], "-test.run", "^TestWrongCasesFail$")
		cmd.Env = append(os.Environ(), "RULESTEST_WRONG_CASE="+name)
		out, err := cmd.CombinedOutput()
		if err == nil || !strings.Contains(string(out), "FAIL") {
			t.Errorf("%s: the kit passed it:\n%s", name, out)
		}
	}
}

func TestPositionText(t *testing.T) {
	p := Position{Order: []string{"a", "b", "c"}, Base: map[string]string{"a": "1", "b": "", "c": "3"},
		Omit: func(fields map[string]string, key string) bool { return key == "c" && fields["a"] == "0" }}
	for _, tc := range []struct {
		overrides []string
		want      string
	}{{nil, "a=1 c=3"}, {[]string{"b=2", "a=7"}, "a=7 b=2 c=3"}, {[]string{"a=0"}, "a=0"}} {
		if got := p.Text(tc.overrides...); got != tc.want {
			t.Errorf("Text(%v) = %q, want %q", tc.overrides, got, tc.want)
		}
	}
	defer func() {
		if recover() == nil {
			t.Errorf("an unknown field was accepted")
		}
	}()
	p.Text("d=1")
}
