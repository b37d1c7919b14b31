package splendorenv

import (
	"fmt"
	"testing"

	"github.com/splendor-rl/splendor/env/envtest"
	"github.com/splendor-rl/splendor/env/splendor"
)

// The spec page is what users read: its label table and offsets must match
// the code.
func TestSpecPageMatchesTheCode(t *testing.T) {
	rows := []string{fmt.Sprintf("shape `[%d]`", ObsSize),
		fmt.Sprintf("| %d | %d | phase, one-hot", offPhase, numPhases),
		fmt.Sprintf("| %d | 1 | seat to play", offToPlay),
		fmt.Sprintf("| %d | 5 | still due", offDue),
		fmt.Sprintf("| %d | 12 | the **card** being paid for", offBuying),
		fmt.Sprintf("| %d | 144 | market", offMarket),
		fmt.Sprintf("| %d | 30 | nobles", offNobles),
		fmt.Sprintf("| %d | 232 | seats", offSeats),
		fmt.Sprintf("| %d | 6 | supply", offBank),
		fmt.Sprintf("| %d | 3 | cards left in decks", offDecks),
		fmt.Sprintf("| %d | 42 | 3 **reserved** blocks", seatHand),
		fmt.Sprintf("`%s` / %d", ID, Version),
		fmt.Sprintf("| Actions | %d,", splendor.NumActions),
		fmt.Sprintf("| %d | ", Version), // its version-history line
		// features: derived
		fmt.Sprintf("| %d | %d | 4 **seat features** blocks", ObsSize, FeaturesSize),
		fmt.Sprintf("shape `[%d]`", ObsSize+FeaturesSize),
		fmt.Sprintf("A **seat features** block (%d values)", featSeatSize),
		fmt.Sprintf("| %d | %d | 12 **short** blocks for the market", featMarket, 12*shortSize),
		fmt.Sprintf("| %d | %d | 3 **short** blocks for the seat's own reserved", featReserved, 3*shortSize),
		fmt.Sprintf("| %d | %d | 5 **noble short** blocks", featNobles, splendor.MaxNobles*nobleShortSize),
		fmt.Sprintf("| %d | 1 | points still needed", featPoints),
		fmt.Sprintf("A **short** block (%d values)", shortSize),
		fmt.Sprintf("A **noble short** block (%d values)", nobleShortSize),
	}
	rows = append(rows, envtest.LayoutRows(t, ID, derived)...)
	envtest.SpecPage(t, "../../docs/envs/splendor.md", splendor.NumActions, splendor.Label, rows...)
}
