package main

import (
	"strings"
	"testing"

	"github.com/splendor-rl/splendor/env/splendor"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// With --payment choose the trace records payment phases: each a decision
// of the buyer between its buy and its next turn, replayable like any other.
func TestTraceRecordsPaymentPhases(t *testing.T) {
	games := decodeTrace(t, runTrace(t, "--seed", "3", "--games", "2", "--payment", "choose"))
	paying := 0
	for _, g := range games {
		for i, d := range g.decisions {
			require.Equal(t, paymentChoose, d.State.Payment)
			if d.Phase != "pay" {
				continue
			}
			paying++
			kind := splendor.ActionAt(g.decisions[i-1].Action).Kind
			if g.decisions[i-1].Phase == "main" {
				require.Contains(t, []splendor.Kind{splendor.BuyCard, splendor.BuyReserved}, kind, "a payment follows a buy")
			}
			require.Equal(t, g.decisions[i-1].Seat, d.Seat)
		}
	}
	require.Positive(t, paying, "the traced games have no payment phase: pick another seed")
	assert.False(t, strings.Contains(runTrace(t, "--seed", "3"), `"due"`), "no payment phase under auto")
}
