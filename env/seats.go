package env

import "github.com/splendor-rl/splendor/internal/rng"

// Seed streams derived from an episode seed, shared by every game's env: the
// deal uses the episode seed itself; the client's seat in vs-bots mode and
// each bot draw from streams of their own, so changing a bot never changes
// the deck.
const (
	seatStream    = 2
	botStreamBase = 16 // + seat
)

// ClientSeat draws the client's seat for an episode, or returns fixed when it
// is a seat (fixed < 0 means "draw").
func ClientSeat(episodeSeed uint64, players, fixed int) int {
	if fixed >= 0 {
		return fixed
	}
	r := rng.New(rng.Derive(episodeSeed, seatStream))
	return r.Intn(players)
}

// BotSeed is the seed of the bot at seat in an episode.
func BotSeed(episodeSeed uint64, seat int) uint64 {
	return rng.Derive(episodeSeed, botStreamBase+uint64(seat))
}

// TerminalRewards adds each seat's end-of-game reward to r (len = players):
// (N·w/k − 1)/(N − 1), where w is 1 for a winner (bit i of winners for seat
// i) and k the number of winners: +1 for a sole winner, −1/(N−1) for each
// loser, a zero-sum split for a shared win. (Written so that the usual
// values are exact in float32.)
func TerminalRewards(winners uint8, r []float32) {
	n := float32(len(r))
	k := float32(0)
	for i := range r {
		k += float32(winners >> i & 1)
	}
	for i := range r {
		w := float32(winners >> i & 1)
		r[i] += (n*w/k - 1) / (n - 1)
	}
}

// ScoreDiffPotentials writes, for each seat, its points minus the mean of
// the others' points, over scale; they sum to zero, so shaping by their
// change is zero-sum too.
func ScoreDiffPotentials(points []int, scale float32, p []float32) {
	total := 0
	for _, x := range points {
		total += x
	}
	others := float32(len(points) - 1)
	for i, x := range points {
		p[i] = (float32(x) - float32(total-x)/others) / scale
	}
}
