package turnbased

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/splendor-rl/splendor/env"
	"github.com/splendor-rl/splendor/internal/rng"
)

// An env's whole state as text (get_state, set_state): the game in its
// engine's notation, hidden information included, " | ", then the env's
// bookkeeping: "me=M last=L truncated=T bots=hex,… rewards=bits,…
// potential=bits,…" (each seat's bot stream, the last step's rewards and
// the score_diff potentials).

// Snapshot writes the env's whole state.
func (e *Env[S, G]) Snapshot() string {
	n := e.c.players
	streams := make([]string, n)
	for i := range n {
		streams[i] = strconv.FormatUint(e.bots[i].State(), 16)
	}
	return fmt.Sprintf("%s | me=%d last=%d truncated=%d bots=%s rewards=%s potential=%s", e.rules().String(),
		e.seats.Me, e.seats.LastActor, b2i(e.seats.Truncated), strings.Join(streams, ","),
		env.FloatBits(e.rewards[:n]), env.FloatBits(e.potential[:n]))
}

// Restore loads what Snapshot wrote, refusing (with an error wrapping
// env.ErrBadState) a state that these options could not reach; on error
// nothing changes.
func (e *Env[S, G]) Restore(text string) error {
	game, book, ok := strings.Cut(text, " | ")
	if !ok {
		return fmt.Errorf("%w: want the game, \" | \", then the env's fields", env.ErrBadState)
	}
	s, err := e.game.Parse(game)
	if err != nil {
		return fmt.Errorf("%w: %v", env.ErrBadState, err)
	}
	b, err := parseBookkeeping(book, e.c.players)
	if err == nil {
		err = e.fits(&s, b)
	}
	if err != nil {
		return err
	}
	e.s = s
	e.sync()
	e.load(b)
	return nil
}

// bookkeeping is the env's fields of a state text.
type bookkeeping struct {
	me, lastActor int
	truncated     bool
	bots          []uint64 // each seat's bot stream (rng.Rand.State)
	rewards       []float32
	potential     []float32
}

// parseBookkeeping reads the env's fields for players seats.
func parseBookkeeping(text string, players int) (bookkeeping, error) {
	var b bookkeeping
	var trunc int
	var bots, rewards, potential string
	n, err := fmt.Sscanf(text, "me=%d last=%d truncated=%d bots=%s rewards=%s potential=%s",
		&b.me, &b.lastActor, &trunc, &bots, &rewards, &potential)
	if err != nil || n != 6 || len(strings.Fields(text)) != 6 {
		return b, fmt.Errorf("%w: env fields: want exactly me, last, truncated, bots, rewards, potential", env.ErrBadState)
	}
	if b.me < 0 || b.me >= players || b.lastActor < 0 || b.lastActor >= players || trunc < 0 || trunc > 1 {
		return b, fmt.Errorf("%w: me, last or truncated out of range", env.ErrBadState)
	}
	b.truncated = trunc == 1
	if b.bots, err = env.ParseHex(bots, players); err != nil {
		return b, err
	}
	if b.rewards, err = env.ParseFloatBits(rewards, players); err != nil {
		return b, err
	}
	b.potential, err = env.ParseFloatBits(potential, players)
	return b, err
}

// fits refuses a game of another table than this env's, or one where a bot
// is to play in vs-bots mode.
func (e *Env[S, G]) fits(s *S, b bookkeeping) error {
	g := G(s)
	switch {
	case g.Seats() != e.c.players:
		return fmt.Errorf("%w: a %d-player game in a %d-player env", env.ErrBadState, g.Seats(), e.c.players)
	case e.c.mode == env.VsBots && !g.Over() && !b.truncated && g.ToPlay() != b.me:
		return fmt.Errorf("%w: a bot's seat is to play, but the client plays seat %d", env.ErrBadState, b.me)
	case e.game.Payment != nil && *e.game.Payment(s) != e.c.choose:
		return fmt.Errorf("%w: %v", env.ErrBadState, errPaymentRule)
	}
	return nil
}

// load writes b into the env's bookkeeping.
func (e *Env[S, G]) load(b bookkeeping) {
	e.seats.Me, e.seats.LastActor, e.seats.Truncated = b.me, b.lastActor, b.truncated
	for i, r := range b.bots {
		e.bots[i] = rng.New(r)
	}
	copy(e.rewards[:], b.rewards)
	copy(e.potential[:], b.potential)
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
