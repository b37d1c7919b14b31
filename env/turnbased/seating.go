package turnbased

import (
	"github.com/splendor-rl/splendor/env"
	"github.com/splendor-rl/splendor/env/tableview"
	"github.com/splendor-rl/splendor/internal/rng"
)

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

// Seating is an env's bookkeeping beside its rules state: whose decision the
// client makes, when the bots play, the turn limit and what Status and
// ToPlay report.
type Seating struct {
	Mode      env.Mode
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
	return t.Mode == env.VsBots && !t.Done(over) && seat != t.Me
}

// ToPlay is the seat to decide; once the episode is over, the seat whose
// observation is served (the client's in vs-bots, the last actor otherwise).
func (t *Seating) ToPlay(seat int, over bool) int {
	switch {
	case t.Mode == env.VsBots:
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

// Episode is the episode's fields of a view (tableview.Episode): over as
// the Vector knows it, the client's seat in vs-bots mode, and, when the
// game is over by its rules, its winners (bit i for seat i).
func (t *Seating) Episode(over, gameOver bool, winners uint8) tableview.Episode {
	ep := tableview.Episode{Over: &over}
	if t.Mode == env.VsBots {
		me := t.Me
		ep.ClientSeat = &me
	}
	if gameOver {
		ep.Winners = tableview.Seats(winners)
	}
	return ep
}
