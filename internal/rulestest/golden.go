package rulestest

import (
	"flag"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/splendor-rl/splendor/internal/golden"
	"github.com/splendor-rl/splendor/internal/rng"
)

// Game is a golden playthrough: the game dealt, the decisions drawn from
// rng.New(Seed), and the file under testdata that pins them.
type Game[S any] struct {
	File   string
	Seed   uint64
	Deal   S
	Header string // the first line, saying how the game was dealt
}

// Outcome spells a finished game: the turns played and the result.
type Outcome[S any] func(s *S) (turns uint32, result string)

// update is the -update flag of the engines' tests: rewrite the golden
// files instead of comparing with them. The kit defines it, so a test
// binary that imports the kit must not define its own.
var update = flag.Bool("update", false, "rewrite testdata golden files")

// maxPlaythrough bounds a golden game so that a rules change that stops
// games from ending fails the test instead of hanging it.
const maxPlaythrough = 5000

// Playthroughs plays each game and compares it with its golden file, or
// rewrites the files with -update. coverage is what the games must show
// between them, so that a rules change cannot quietly leave a phase
// unchecked; outcome spells a finished game's turns and result.
func (e *Engine[S, M, PS, PM]) Playthroughs(t *testing.T, games []Game[S], coverage []string, outcome Outcome[S]) {
	var all strings.Builder
	for _, g := range games {
		t.Run(g.File, func(t *testing.T) {
			text := e.playthrough(t, g, outcome)
			all.WriteString(text)
			golden.Check(t, filepath.Join("testdata", g.File), text, *update)
		})
	}
	for _, c := range coverage {
		if !strings.Contains(all.String(), c) {
			t.Errorf("no playthrough has %q; pick other seeds", c)
		}
	}
}

// playthrough plays the game with uniformly random legal decisions and
// writes one line per decision: its number, the state notation, the legal
// labels and the chosen label; then the result and the final state. Every
// state is also parsed back, so the golden files pin Parse as well as String.
func (e *Engine[S, M, PS, PM]) playthrough(t *testing.T, g Game[S], outcome Outcome[S]) string {
	s := g.Deal
	r := rng.New(g.Seed)
	var b strings.Builder
	fmt.Fprintf(&b, "# %s, decisions uniformly random from the legal set by rng.New(%d).\n", g.Header, g.Seed)
	fmt.Fprintln(&b, "# decision=N <state notation> legal=[labels] chose=label; regenerate with go test -run TestPlaythroughs -update")
	n := 0
	for ; !PS(&s).Over(); n++ {
		if n >= maxPlaythrough {
			t.Fatalf("the game does not end")
		}
		e.ReadsBack(t, s)
		a := e.Random(&s, &r)
		fmt.Fprintf(&b, "decision=%d %s legal=[%s] chose=%s\n", n, PS(&s),
			strings.Join(e.LegalLabels(&s), ", "), e.Label(a))
		if err := PS(&s).Apply(a); err != nil {
			t.Fatal(err)
		}
	}
	e.ReadsBack(t, s)
	turns, result := outcome(&s)
	fmt.Fprintf(&b, "result turns=%d decisions=%d %s\n", turns, n, result)
	fmt.Fprintf(&b, "final %s\n", PS(&s))
	return b.String()
}
