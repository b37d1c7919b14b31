package turnbased_test

import (
	"testing"

	"github.com/splendor-rl/splendor/env/bots"
	"github.com/splendor-rl/splendor/env/turnbased"
	"github.com/stretchr/testify/assert"
)

// A search's value (bots.ShareValue of a seat's outcome share) is that
// seat's terminal reward, for every table size and set of winners.
func TestShareValueIsTheTerminalReward(t *testing.T) {
	for players := 2; players <= bots.MaxSeats; players++ {
		for winners := uint8(1); winners < 1<<players; winners++ {
			rewards := make([]float32, players)
			turnbased.TerminalRewards(winners, rewards)
			shares := bots.Shares(winners, players)
			for seat, r := range rewards {
				assert.InDelta(t, r, bots.ShareValue(shares[seat], players), 1e-6, "%d players, winners %b, seat %d",
					players, winners, seat)
			}
		}
	}
}
