package splendor_test

import (
	"flag"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/splendor-rl/splendor/env/splendor"
	"github.com/splendor-rl/splendor/internal/golden"
	"github.com/splendor-rl/splendor/internal/rng"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite testdata golden files")

// playthroughs are the golden games, one per player count and one with the
// payment choice. Any change to the deal, the legal sets, the effect of an
// action or the notation shows up as a diff in their files. The seeds were
// picked for short games that between them return tokens, choose a noble,
// reserve blind and pay with gold by choice, several times in one purchase
// too (see coverage).
var playthroughs = []struct {
	players int
	seed    uint64
	choose  bool
}{{2, 17, false}, {3, 17, false}, {4, 2244, false}, {2, 670, true}}

// coverage is what the playthroughs must show between them, so that a rules
// change cannot quietly leave a phase or the blind mark unchecked.
var coverage = []string{" phase=main ", " phase=pay ", " phase=return ", " phase=noble ", "|*",
	"chose=pay gold for", "chose=pay done"}

// maxPlaythrough bounds a golden game so that a rules change that stops games
// from ending fails the test instead of hanging it.
const maxPlaythrough = 2000

func TestPlaythroughs(t *testing.T) {
	var all strings.Builder
	for _, g := range playthroughs {
		name := fmt.Sprintf("playthrough_%dp_seed%d.txt", g.players, g.seed)
		if g.choose {
			name = fmt.Sprintf("playthrough_%dp_seed%d_choose.txt", g.players, g.seed)
		}
		t.Run(name, func(t *testing.T) {
			text := playthrough(t, g.players, g.seed, g.choose)
			all.WriteString(text)
			golden.Check(t, filepath.Join("testdata", name), text, *update)
		})
	}
	for _, c := range coverage {
		require.True(t, strings.Contains(all.String(), c), "no playthrough has %q; pick other seeds", c)
	}
}

// playthrough plays the seeded game with uniformly random legal decisions and
// writes one line per decision: its number, the state notation, the legal
// labels and the chosen label; then the result and the final state. Every
// state is also parsed back, so the golden files pin Parse as well as String.
func playthrough(t *testing.T, players int, seed uint64, choose bool) string {
	s, err := splendor.New(players, seed)
	require.NoError(t, err)
	s.ChoosePayment = choose
	r := rng.New(seed)
	var b strings.Builder
	rule := ""
	if choose {
		rule = " with ChoosePayment"
	}
	fmt.Fprintf(&b, "# Splendor playthrough: splendor.New(%d, %d)%s, decisions uniformly random from the legal set by rng.New(%d).\n",
		players, seed, rule, seed)
	fmt.Fprintln(&b, "# decision=N <state notation> legal=[labels] chose=label; regenerate with go test -run TestPlaythroughs -update")
	var legal splendor.ActionSet
	n := 0
	for ; !s.Over(); n++ {
		require.Less(t, n, maxPlaythrough, "the game does not end")
		requireParsesBack(t, s)
		s.Legal(&legal)
		a := legal.Nth(r.Intn(legal.Len()))
		fmt.Fprintf(&b, "decision=%d %s legal=[%s] chose=%s\n", n, s, labelList(&legal), splendor.Label(a))
		require.NoError(t, s.Apply(a))
	}
	requireParsesBack(t, s)
	fmt.Fprintf(&b, "result turns=%d decisions=%d %s\n", s.Turn, n, outcome(&s))
	fmt.Fprintf(&b, "final %s\n", s)
	return b.String()
}

func requireParsesBack(t *testing.T, s splendor.State) {
	t.Helper()
	back, err := splendor.Parse(s.String())
	require.NoError(t, err, "%s", s)
	require.Equal(t, s, back, "Parse(String()) differs from the live state %s", s)
}

func labelList(legal *splendor.ActionSet) string {
	labels := make([]string, 0, legal.Len())
	for k := 0; k < legal.Len(); k++ {
		labels = append(labels, splendor.Label(legal.Nth(k)))
	}
	return strings.Join(labels, ", ")
}

// outcome spells the scores (points and cards bought per seat) and the
// winning seats, or "blocked".
func outcome(s *splendor.State) string {
	var scores, winners []string
	for i := 0; i < int(s.NumPlayers); i++ {
		p := &s.Players[i]
		scores = append(scores, fmt.Sprintf("%dpts/%dcards", p.Points, p.Bought.Len()))
		if s.Winners()&(1<<i) != 0 {
			winners = append(winners, fmt.Sprint(i))
		}
	}
	if s.Blocked() {
		winners = []string{"none (blocked)"}
	}
	return fmt.Sprintf("scores=%s winners=%s", strings.Join(scores, ","), strings.Join(winners, ","))
}
