package duelenv

import (
	"fmt"
	"strings"

	"github.com/splendor-rl/splendor/env"
	"github.com/splendor-rl/splendor/env/duel"
	"github.com/splendor-rl/splendor/internal/rng"
)

// Snapshot writes the game in the engine's notation, hidden information
// included, then " | " and the env's bookkeeping (env.Bookkeeping).
func (e *Env) Snapshot() string {
	n := duel.NumPlayers
	b := e.seats.Book()
	b.Rewards, b.Potential = e.rewards[:n], e.potential[:n]
	for i := range n {
		b.Bots = append(b.Bots, e.bots[i].r.State())
	}
	return e.s.String() + " | " + b.String()
}

// Restore loads what Snapshot wrote, checking that it is a state this env's
// options can reach; on error nothing changes.
func (e *Env) Restore(text string) error {
	game, book, ok := strings.Cut(text, " | ")
	if !ok {
		return fmt.Errorf("%w: want the game, \" | \", then the env's fields", env.ErrBadState)
	}
	s, err := duel.Parse(game)
	if err == nil {
		err = s.Check()
	}
	if err != nil {
		return fmt.Errorf("%w: %v", env.ErrBadState, err)
	}
	b, err := env.ParseBookkeeping(book, duel.NumPlayers)
	if err != nil {
		return err
	}
	if err := e.fits(&s, b); err != nil {
		return err
	}
	e.s = s
	e.seats.Load(b)
	for i, r := range b.Bots {
		e.bots[i].r = rng.New(r)
	}
	copy(e.rewards[:], b.Rewards)
	copy(e.potential[:], b.Potential)
	return nil
}

// fits refuses a game of another payment rule than this env's,
// or one where a bot is to play in vs-bots mode.
func (e *Env) fits(s *duel.State, b env.Bookkeeping) error {
	switch {
	case s.ChoosePayment != (e.c.payment == PaymentChoose):
		return fmt.Errorf("%w: the game's payment rule is not the env's", env.ErrBadState)
	case e.c.mode == env.VsBots && !s.Over() && !b.Truncated && int(s.Seat) != b.Me:
		return fmt.Errorf("%w: a bot's seat is to play, but the client plays seat %d", env.ErrBadState, b.Me)
	}
	return nil
}

// CopyFrom takes src's whole state; src is an env of the same batch.
func (e *Env) CopyFrom(src env.Env) { *e = *src.(*Env) }

// BotAction is the action bot would choose now, drawing from seed.
func (e *Env) BotAction(bot string, seed uint64) (int, error) {
	if bot != BotRandom && bot != BotGreedy {
		return 0, fmt.Errorf("%w: bot %q (known: %s, %s)", env.ErrBadOption, bot, BotRandom, BotGreedy)
	}
	b, s := newBot(bot, seed), e.s
	return b.act(&s, &e.legal), nil
}
