package splendorenv

import (
	"fmt"

	"github.com/splendor-rl/splendor/env"
	"github.com/splendor-rl/splendor/env/splendor"
)

// Env is one Splendor game as an env.Env.
type Env struct {
	c         config
	s         splendor.State
	me        int // the client's seat in vs-bots mode
	lastActor int // the seat that made the last decision
	truncated bool
	bots      [splendor.MaxPlayers]bot
	rewards   [splendor.MaxPlayers]float32
	potential [splendor.MaxPlayers]float32 // score_diff shaping, at the client's last decision
	legal     splendor.ActionSet
}

func newEnv(c config) *Env {
	return &Env{c: c}
}

// Reset deals a new game from seed; in vs-bots mode the bots seated before
// the client play their first turns.
func (e *Env) Reset(seed uint64) {
	e.s, _ = splendor.New(e.c.players, seed) // players was range-checked by readConfig
	e.me = env.ClientSeat(seed, e.c.players, e.c.seat)
	for i := 0; i < e.c.players; i++ {
		e.bots[i] = newBot(e.c.bots[i], env.BotSeed(seed, i))
	}
	e.truncated, e.lastActor = false, 0
	e.playBots()
	e.rewards = [splendor.MaxPlayers]float32{}
	e.potential = e.potentials()
}

// Step plays the client's decision, then, in vs-bots mode, the bots' until
// the client is to play again or the episode ends.
func (e *Env) Step(action int) error {
	if e.done() {
		return fmt.Errorf("%w: the episode is over", env.ErrIllegalAction)
	}
	e.rewards = [splendor.MaxPlayers]float32{}
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
	if !e.s.Over() && e.s.Turn >= uint32(e.c.maxRounds*e.c.players) {
		e.truncated = true
	}
	return nil
}

func (e *Env) playBots() {
	if e.c.mode != env.VsBots {
		return
	}
	for !e.done() && int(e.s.Seat) != e.me {
		seat := int(e.s.Seat)
		if err := e.apply(e.bots[seat].act(&e.s, &e.legal)); err != nil {
			panic("splendorenv: bot chose an illegal action: " + err.Error())
		}
	}
}

// done: the game is over (won, shared or blocked) or cut by the turn limit.
func (e *Env) done() bool { return e.s.Over() || e.truncated }

// Status: a blocked game, where nobody can ever act again, counts as
// truncated, like the turn limit: neither is a result of play.
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
	if e.done() {
		clear(mask[:splendor.NumActions])
		return
	}
	e.s.Legal(&e.legal)
	for i := 0; i < splendor.NumActions; i++ {
		mask[i] = uint8(e.legal[i>>6] >> (i & 63) & 1)
	}
}

// Rewards writes each seat's reward for the last step.
func (e *Env) Rewards(r []float32) {
	copy(r, e.rewards[:e.c.players])
}

// State returns a copy of the game, hidden information included (for tools
// and tests, never for observations).
func (e *Env) State() splendor.State { return e.s }

// Clone copies the env, game and bots' streams included.
func (e *Env) Clone() env.Env {
	c := *e
	return &c
}

// String is the game in the engine's notation (hidden information included).
func (e *Env) String() string { return e.s.String() }
