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

// Seating is the bookkeeping every turn-based env shares: whose decision the
// client makes, when the bots play, the turn limit and what Status and
// ToPlay report. A game's env keeps one beside its rules state.
type Seating struct {
	Mode      Mode
	Players   int
	FixedSeat int    // the client's seat in vs-bots mode, −1: drawn per episode
	MaxTurns  uint32 // truncate once this many turns are complete
	Me        int    // the client's seat this episode (vs-bots)
	LastActor int    // the seat that made the last decision
	Truncated bool
}

// Start begins an episode dealt from seed.
func (t *Seating) Start(seed uint64) {
	t.Me = ClientSeat(seed, t.Players, t.FixedSeat)
	t.LastActor, t.Truncated = 0, false
}

// Played records a decision by seat, after which turns are complete and the
// game is over or not.
func (t *Seating) Played(seat int, turns uint32, over bool) {
	t.LastActor = seat
	if !over && turns >= t.MaxTurns {
		t.Truncated = true
	}
}

// Done: the game is over or was cut by the turn limit.
func (t *Seating) Done(over bool) bool { return over || t.Truncated }

// BotToPlay reports whether a built-in bot makes the next decision.
func (t *Seating) BotToPlay(seat int, over bool) bool {
	return t.Mode == VsBots && !t.Done(over) && seat != t.Me
}

// ToPlay is the seat to decide; once the episode is over, the seat whose
// observation is served (the client's in vs-bots, the last actor otherwise).
func (t *Seating) ToPlay(seat int, over bool) int {
	switch {
	case t.Mode == VsBots:
		return t.Me
	case t.Done(over):
		return t.LastActor
	}
	return seat
}

// Status: a blocked game, where nobody can ever act again, counts as
// truncated, like the turn limit: neither is a result of play.
func (t *Seating) Status(over, blocked bool) (terminated, truncated bool) {
	return over && !blocked, t.Truncated || blocked
}
