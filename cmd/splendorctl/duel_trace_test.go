package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/splendor-rl/splendor/env/duel"
	"github.com/stretchr/testify/require"
)

func duelTrace(t *testing.T, args ...string) ([]decisionLine[duelView], duelResultLine, []byte) {
	t.Helper()
	var out bytes.Buffer
	require.NoError(t, run(append([]string{"trace", "--game", "duel"}, args...), &out))
	var decisions []decisionLine[duelView]
	var result duelResultLine
	lines := bufio.NewScanner(bytes.NewReader(out.Bytes()))
	lines.Buffer(nil, 1<<24)
	for lines.Scan() {
		if strings.Contains(lines.Text(), `"type":"result"`) {
			require.NoError(t, json.Unmarshal(lines.Bytes(), &result))
			continue
		}
		var d decisionLine[duelView]
		require.NoError(t, json.Unmarshal(lines.Bytes(), &d))
		decisions = append(decisions, d)
	}
	return decisions, result, out.Bytes()
}

// Replaying the recorded actions from duel.New reproduces every recorded
// state, each action was legal, and the result matches the final state.
func TestDuelTraceReplays(t *testing.T) {
	decisions, result, _ := duelTrace(t, "--seed", "9")
	require.NotEmpty(t, decisions)
	s := duel.New(9)
	for _, d := range decisions {
		require.Equal(t, s.String(), d.State.Notation, "decision %d", d.Decision)
		parsed, err := duel.Parse(d.State.Notation)
		require.NoError(t, err)
		require.Equal(t, s, parsed)
		var legal duel.ActionSet
		s.Legal(&legal)
		require.True(t, legal.Has(d.Action))
		require.Equal(t, duel.Label(d.Action), d.Label)
		require.Len(t, d.Legal, legal.Len())
		require.Len(t, d.State.Board, duel.NumCells)
		require.NoError(t, s.Apply(d.Action))
	}
	require.True(t, s.Over())
	require.Equal(t, s.String(), result.Final)
	require.Equal(t, len(decisions), result.Decisions)
	if !s.Blocked() {
		require.Equal(t, []int{int(s.Seat)}, result.Winners)
		require.NotEmpty(t, result.Victory)
	}
}

func TestDuelTraceIsDeterministicAndDocumented(t *testing.T) {
	_, _, a := duelTrace(t, "--seed", "4", "--games", "2")
	_, _, b := duelTrace(t, "--seed", "4", "--games", "2")
	require.Equal(t, a, b)
	doc, err := os.ReadFile("../../docs/trace.md")
	require.NoError(t, err)
	for _, line := range bytes.Split(bytes.TrimSpace(a), []byte("\n")) {
		var v any
		require.NoError(t, json.Unmarshal(line, &v))
		for _, k := range jsonKeys(v) {
			require.Contains(t, string(doc), "`"+k+"`", "docs/trace.md does not describe %q", k)
		}
	}
}

// jsonKeys lists the object keys in v, nested ones included (joker
// colours are keyed by card ids, which are not field names).
func jsonKeys(v any) []string {
	var keys []string
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if k == "joker_colours" {
				keys = append(keys, k)
				continue
			}
			keys = append(keys, k)
			keys = append(keys, jsonKeys(e)...)
		}
	case []any:
		for _, e := range x {
			keys = append(keys, jsonKeys(e)...)
		}
	}
	return keys
}

func TestDuelTraceRefusesOtherPlayerCounts(t *testing.T) {
	require.Error(t, run([]string{"trace", "--game", "duel", "--players", "3"}, &bytes.Buffer{}))
}
