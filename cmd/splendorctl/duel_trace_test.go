package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/splendor-rl/splendor/env/duel"
	"github.com/splendor-rl/splendor/env/duelenv"
	"github.com/stretchr/testify/require"
)

func duelTrace(t *testing.T, args ...string) ([]decisionLine[duelenv.StateView], duelResultLine, []byte) {
	t.Helper()
	var out bytes.Buffer
	require.NoError(t, run(append([]string{"trace", "--game", "duel"}, args...), &out))
	var decisions []decisionLine[duelenv.StateView]
	var result duelResultLine
	lines := bufio.NewScanner(bytes.NewReader(out.Bytes()))
	lines.Buffer(nil, 1<<24)
	for lines.Scan() {
		if strings.Contains(lines.Text(), `"type":"result"`) {
			require.NoError(t, json.Unmarshal(lines.Bytes(), &result))
			continue
		}
		var d decisionLine[duelenv.StateView]
		require.NoError(t, json.Unmarshal(lines.Bytes(), &d))
		decisions = append(decisions, d)
	}
	return decisions, result, out.Bytes()
}

// Replaying the recorded actions from duel.New reproduces every recorded
// state, each action was legal, and the result matches the final state; in
// both payment rules.
func TestDuelTraceReplays(t *testing.T) {
	for _, args := range [][]string{{"--seed", "9"}, {"--seed", "99", "--payment", "choose"}} {
		decisions, result, _ := duelTrace(t, args...)
		require.NotEmpty(t, decisions)
		s := duel.New(result.Seed)
		s.ChoosePayment = decisions[0].State.Payment == paymentChoose
		for _, d := range decisions {
			require.Equal(t, s.String(), d.State.Notation, "decision %d", d.Decision)
			parsed, err := duel.Parse(d.State.Notation)
			require.NoError(t, err)
			require.Equal(t, s, parsed)
			checkDuelPayment(t, d.State, &s)
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
}

// checkDuelPayment: the view names the payment rule, and in phase pay the
// card being paid for (pending) and what is still due.
func checkDuelPayment(t *testing.T, v duelenv.StateView, s *duel.State) {
	t.Helper()
	require.Equal(t, s.ChoosePayment, v.Payment == paymentChoose, v.Notation)
	require.Equal(t, s.Phase == duel.PhasePay, v.Due != nil, v.Notation)
	if v.Due != nil {
		due := []int{v.Due.White, v.Due.Blue, v.Due.Green, v.Due.Red, v.Due.Black, v.Due.Pearl}
		for k, n := range s.Due {
			require.Equal(t, int(n), due[k], v.Notation)
		}
		require.Equal(t, int(s.Pending), *v.Pending, v.Notation)
	}
}

// With --payment choose the trace records pay decisions, each right after
// the same seat's buy or an earlier pay decision.
func TestDuelTraceRecordsPaymentPhases(t *testing.T) {
	decisions, _, _ := duelTrace(t, "--seed", "99", "--payment", "choose")
	paying := 0
	for i, d := range decisions {
		if d.Phase != "pay" {
			continue
		}
		paying++
		before := duel.ActionAt(decisions[i-1].Action).Kind
		require.Contains(t, []duel.Kind{duel.BuyCard, duel.BuyReserved, duel.PayGold}, before)
		require.Equal(t, decisions[i-1].Seat, d.Seat)
	}
	require.Positive(t, paying, "the traced game has no payment phase: pick another seed")
	_, _, auto := duelTrace(t, "--seed", "99")
	require.NotContains(t, string(auto), `"due"`, "no payment phase under auto")
}

func TestDuelTraceIsDeterministicAndDocumented(t *testing.T) {
	_, _, a := duelTrace(t, "--seed", "4", "--games", "2")
	_, _, b := duelTrace(t, "--seed", "4", "--games", "2")
	require.Equal(t, a, b)
	doc, err := os.ReadFile("../../docs/trace.md")
	require.NoError(t, err)
	_, _, paying := duelTrace(t, "--seed", "99", "--payment", "choose")
	require.Contains(t, string(paying), `"due"`)
	for _, line := range bytes.Split(bytes.TrimSpace(append(a, paying...)), []byte("\n")) {
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
