package splendorenv

import (
	"fmt"
	"github.com/splendor-rl/splendor/env/bots"
	"github.com/splendor-rl/splendor/internal/rng"

	"github.com/splendor-rl/splendor/env"
	"github.com/splendor-rl/splendor/env/splendor"
)

// Snapshot writes the game in the engine's notation, hidden information
// included, then the env's bookkeeping (env.WriteSnapshot).
func (e *Env) Snapshot() string { return env.WriteSnapshot(e.s.String(), e.kept()) }

// Restore loads what Snapshot wrote, checking that it is a state this env's
// options can reach; on error nothing changes.
func (e *Env) Restore(text string) error {
	s, b, err := env.ReadSnapshot(text, e.c.players, parseChecked)
	if err == nil {
		err = e.fits(&s, b)
	}
	if err != nil {
		return err
	}
	e.s = s
	e.kept().Load(b)
	return nil
}

// kept points at the env's bookkeeping.
func (e *Env) kept() env.Kept {
	n := e.c.players
	k := env.Kept{Seats: &e.seats, Rewards: e.rewards[:n], Potential: e.potential[:n]}
	for i := range n {
		k.Bots = append(k.Bots, &e.bots[i])
	}
	return k
}

// parseChecked reads a game and checks it could occur in play.
func parseChecked(text string) (splendor.State, error) {
	s, err := splendor.Parse(text)
	if err == nil {
		err = s.Check()
	}
	return s, err
}

// fits refuses a game of another table or payment rule than this env's,
// or one where a bot is to play in vs-bots mode.
func (e *Env) fits(s *splendor.State, b env.Bookkeeping) error {
	switch {
	case int(s.NumPlayers) != e.c.players:
		return fmt.Errorf("%w: a %d-player game in a %d-player env", env.ErrBadState, s.NumPlayers, e.c.players)
	case s.ChoosePayment != e.c.choosePayment:
		return fmt.Errorf("%w: the game's payment rule is not the env's", env.ErrBadState)
	case e.c.mode == env.VsBots && !s.Over() && !b.Truncated && int(s.Seat) != b.Me:
		return fmt.Errorf("%w: a bot's seat is to play, but the client plays seat %d", env.ErrBadState, b.Me)
	}
	return nil
}

// CopyFrom takes src's whole state; src is an env of the same batch.
func (e *Env) CopyFrom(src env.Env) { *e = *src.(*Env) }

// BotAction is the action bot would choose now, drawing from seed.
func (e *Env) BotAction(bot bots.Spec, seed uint64) int {
	r := rng.New(seed)
	return builtin.Act(bot, &r, (*game)(&e.s))
}
