package duelenv

import (
	"fmt"

	"github.com/splendor-rl/splendor/env"
	"github.com/splendor-rl/splendor/env/duel"
)

// Env is one Splendor Duel game as an env.Env.
type Env struct {
	c         config
	s         duel.State
	me        int // the client's seat in vs-bots mode
	lastActor int
	truncated bool
	bots      [duel.NumPlayers]bot
	rewards   [duel.NumPlayers]float32
	potential [duel.NumPlayers]float32 // score_diff shaping, at the client's last decision
	legal     duel.ActionSet
}

// Reset deals a new game from seed; in vs-bots mode a bot seated first plays
// its first turn.
func (e *Env) Reset(seed uint64) {
	e.s = duel.New(seed)
	e.me = env.ClientSeat(seed, duel.NumPlayers, e.c.seat)
	for i := range e.bots {
		e.bots[i] = newBot(e.c.bots[i], env.BotSeed(seed, i))
	}
	e.truncated, e.lastActor = false, 0
	e.playBots()
	e.rewards = [duel.NumPlayers]float32{}
	e.potential = e.potentials()
}

// Step plays the client's decision, then, in vs-bots mode, the bot's until
// the client is to play again or the episode ends.
func (e *Env) Step(action int) error {
	if e.done() {
		return fmt.Errorf("%w: the episode is over", env.ErrIllegalAction)
	}
	e.rewards = [duel.NumPlayers]float32{}
	if err := e.apply(action); err != nil {
		return fmt.Errorf("%w: %v", env.ErrIllegalAction, err)
	}
	e.playBots()
	e.score()
	return nil
}

func (e *Env) apply(action int) error {
	seat := int(e.s.Seat)
	if err := e.s.Apply(action); err != nil {
		return err
	}
	e.lastActor = seat
	if !e.s.Over() && e.s.Turn >= uint32(e.c.maxRounds*duel.NumPlayers) {
		e.truncated = true
	}
	return nil
}

func (e *Env) playBots() {
	if e.c.mode != env.VsBots {
		return
	}
	for !e.done() && int(e.s.Seat) != e.me {
		if err := e.apply(e.bots[e.s.Seat].act(&e.s, &e.legal)); err != nil {
			panic("duelenv: bot chose an illegal action: " + err.Error())
		}
	}
}

func (e *Env) done() bool { return e.s.Over() || e.truncated }

// Status: a blocked game counts as truncated, like the turn limit.
func (e *Env) Status() (terminated, truncated bool) {
	blocked := e.s.Blocked()
	return e.s.Over() && !blocked, e.truncated || blocked
}

// ToPlay is the seat to decide; once the episode is over, the seat whose
// observation is served (the client's in vs-bots, the last actor otherwise).
func (e *Env) ToPlay() int {
	if e.c.mode == env.VsBots {
		return e.me
	}
	if e.done() {
		return e.lastActor
	}
	return int(e.s.Seat)
}

// Mask writes the legal actions as 0/1 bytes.
func (e *Env) Mask(mask []uint8) {
	mask = mask[:duel.NumActions]
	if e.done() {
		clear(mask)
		return
	}
	e.s.Legal(&e.legal)
	for i := range mask {
		mask[i] = uint8(e.legal[i>>6] >> (i & 63) & 1)
	}
}

// Rewards writes each seat's reward for the last step.
func (e *Env) Rewards(r []float32) { copy(r, e.rewards[:]) }

// Clone copies the env, game and bots' streams included.
func (e *Env) Clone() env.Env {
	c := *e
	return &c
}

// String is the game in the engine's notation (hidden information included).
func (e *Env) String() string { return e.s.String() }

// State returns a copy of the game, hidden information included.
func (e *Env) State() duel.State { return e.s }
