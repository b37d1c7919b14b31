package duel_test

import (
	"flag"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/splendor-rl/splendor/env/duel"
	"github.com/splendor-rl/splendor/internal/golden"
	"github.com/splendor-rl/splendor/internal/rng"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite testdata golden files")

// playthroughs are the golden games. Any change to the deal, the bag draws,
// the legal sets, the effect of an action or the notation shows up as a diff
// in their files. The seeds were picked for short games that between them
// reach every phase and reserve blind (see coverage), and end by each
// victory condition: points (5), one colour (154, won by seat 1), crowns
// (305); seed 99 plays the "choose payment" variant and asks for payments.
var playthroughs = []struct {
	seed   uint64
	choose bool
}{{5, false}, {154, false}, {305, false}, {99, true}}

// coverage is what the playthroughs must show between them, so that a rules
// change cannot quietly leave a phase or the blind mark unchecked.
var coverage = []string{" phase=main ", " phase=reserve ", " phase=pay ", " phase=joker ", " phase=token ",
	" phase=steal ", " phase=royal ", " phase=return ", "|*", "chose=replenish", "chose=privilege ",
	"chose=pay gold for ", "chose=pay done"}

func TestPlaythroughs(t *testing.T) {
	var all strings.Builder
	for _, g := range playthroughs {
		name := fmt.Sprintf("playthrough_seed%d.txt", g.seed)
		if g.choose {
			name = fmt.Sprintf("playthrough_seed%d_choose.txt", g.seed)
		}
		t.Run(name, func(t *testing.T) {
			text := playthrough(t, g.seed, g.choose)
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
func playthrough(t *testing.T, seed uint64, choose bool) string {
	s := duel.New(seed)
	s.ChoosePayment = choose
	r := rng.New(seed)
	var b strings.Builder
	variant := ""
	if choose {
		variant = " with ChoosePayment"
	}
	fmt.Fprintf(&b, "# Splendor Duel playthrough: duel.New(%d)%s, decisions uniformly random from the legal set by rng.New(%d).\n",
		seed, variant, seed)
	fmt.Fprintln(&b, "# decision=N <state notation> legal=[labels] chose=label; regenerate with go test -run TestPlaythroughs -update")
	var legal duel.ActionSet
	n := 0
	for ; !s.Over(); n++ {
		require.Less(t, n, maxDecisions, "the game does not end")
		requireParsesBack(t, s)
		s.Legal(&legal)
		a := legal.Nth(r.Intn(legal.Len()))
		fmt.Fprintf(&b, "decision=%d %s legal=[%s] chose=%s\n", n, s, labelList(&legal), duel.Label(a))
		require.NoError(t, s.Apply(a))
	}
	requireParsesBack(t, s)
	fmt.Fprintf(&b, "result turns=%d decisions=%d %s\n", s.Turn, n, outcome(&s))
	fmt.Fprintf(&b, "final %s\n", s)
	return b.String()
}

func requireParsesBack(t *testing.T, s duel.State) {
	t.Helper()
	back, err := duel.Parse(s.String())
	require.NoError(t, err, "%s", s)
	require.Equal(t, s, back, "Parse(String()) differs from the live state %s", s)
}

func labelList(legal *duel.ActionSet) string {
	labels := make([]string, 0, legal.Len())
	for k := 0; k < legal.Len(); k++ {
		labels = append(labels, duel.Label(legal.Nth(k)))
	}
	return strings.Join(labels, ", ")
}

// outcome spells the scores (points and crowns per seat), the winner and the
// victory condition, or "blocked".
func outcome(s *duel.State) string {
	var scores []string
	for i := range s.Players {
		p := &s.Players[i]
		scores = append(scores, fmt.Sprintf("%dpts/%dcrowns", p.Points, p.Crowns))
	}
	result := "blocked"
	if !s.Blocked() {
		result = fmt.Sprintf("winner=%d by=%s", s.Seat, s.Players[s.Seat].Victory())
	}
	return fmt.Sprintf("scores=%s %s", strings.Join(scores, ","), result)
}
