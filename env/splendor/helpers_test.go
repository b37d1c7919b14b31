package splendor_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/splendor-rl/splendor/env/splendor"
	"github.com/stretchr/testify/require"
)

// notationFields is the field order of the text notation; payment and buying
// are written only when set (see State.String).
var notationFields = []string{"payment", "players", "seat", "phase", "buying", "turn", "final", "passes", "bank",
	"nobles", "market", "decks", "p0", "p1", "p2", "p3"}

// basePosition is the start of a 2-player game with a known layout; pos
// overrides some of its fields so each case states only what matters.
var basePosition = map[string]string{
	"payment": "", "buying": "",
	"players": "2", "seat": "0", "phase": "main", "turn": "0", "final": "0", "passes": "0",
	"bank": "444445", "nobles": "0.1.2.-.-",
	"market": "0.24.36.22/40.41.42.43/70.71.72.73", "decks": "5.6/46/74",
	"p0": "000000|-|-|-", "p1": "000000|-|-|-", "p2": "000000|-|-|-", "p3": "000000|-|-|-",
}

// pos writes basePosition with overrides given as "key=value".
func pos(overrides ...string) string {
	fields := map[string]string{}
	for k, v := range basePosition {
		fields[k] = v
	}
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
	var players int
	fmt.Sscan(fields["players"], &players)
	var b strings.Builder
	for _, k := range notationFields {
		if len(k) == 2 && k[0] == 'p' && int(k[1]-'0') >= players || fields[k] == "" {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(k + "=" + fields[k])
	}
	return b.String()
}

// choosing is pos in a game with the payment choice.
func choosing(overrides ...string) string {
	return pos(append([]string{"payment=choose"}, overrides...)...)
}

func mustParse(t *testing.T, text string) splendor.State {
	t.Helper()
	s, err := splendor.Parse(text)
	require.NoError(t, err, text)
	return s
}

// play applies actions by label, failing the test on the first error.
func play(t *testing.T, s *splendor.State, labels ...string) {
	t.Helper()
	for _, l := range labels {
		i, err := splendor.ParseAction(l)
		require.NoError(t, err)
		require.NoError(t, s.Apply(i), "%s in %s", l, s)
	}
}

// legalLabels lists the labels of the legal actions in index order.
func legalLabels(s *splendor.State) []string {
	var m splendor.ActionSet
	s.Legal(&m)
	labels := []string{}
	for i := 0; i < splendor.NumActions; i++ {
		if m.Has(i) {
			labels = append(labels, splendor.Label(i))
		}
	}
	return labels
}
