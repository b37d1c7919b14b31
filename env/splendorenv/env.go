package splendorenv

import (
	"fmt"
	"github.com/splendor-rl/splendor/internal/bitset"
	"github.com/splendor-rl/splendor/internal/rng"

	"github.com/splendor-rl/splendor/env"
	"github.com/splendor-rl/splendor/env/splendor"
)

// Env is one Splendor game as an env.Env.
type Env struct {
	c         config
	s         splendor.State
	seats     env.Seating
	bots      [splendor.MaxPlayers]rng.Rand // each bot's stream
	rewards   [splendor.MaxPlayers]float32
	potential [splendor.MaxPlayers]float32 // score_diff shaping, at the client's last decision
	legal     splendor.ActionSet
}

func newEnv(c config) *Env {
	return &Env{c: c, seats: env.Seating{Mode: c.mode, Players: c.players, FixedSeat: c.seat,
		MaxTurns: uint32(c.maxRounds * c.players)}}
}

// Reset deals a new game from seed; in vs-bots mode the bots seated before
// the client play their first turns.
func (e *Env) Reset(seed uint64) {
	e.s, _ = splendor.New(e.c.players, seed) // players was range-checked by readConfig
	e.s.ChoosePayment = e.c.choosePayment
	e.seats.Start(seed)
	for i := 0; i < e.c.players; i++ {
		e.bots[i] = rng.New(env.BotSeed(seed, i))
	}
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
	e.seats.Played(seat, e.s.Turn, e.s.Over())
	return nil
}

func (e *Env) playBots() {
	for e.seats.BotToPlay(int(e.s.Seat), e.s.Over()) {
		if err := e.apply(builtin.Act(e.c.bots[e.s.Seat], &e.bots[e.s.Seat], (*game)(&e.s))); err != nil {
			panic("splendorenv: bot chose an illegal action: " + err.Error())
		}
	}
}

func (e *Env) done() bool { return e.seats.Done(e.s.Over()) }

// Status reports a blocked game as truncated (see env.Seating).
func (e *Env) Status() (terminated, truncated bool) { return e.seats.Status(e.s.Over(), e.s.Blocked()) }

// ToPlay is the seat whose decision or observation is served.
func (e *Env) ToPlay() int { return e.seats.ToPlay(int(e.s.Seat), e.s.Over()) }

// Mask writes the legal actions as 0/1 bytes.
func (e *Env) Mask(mask []uint8) {
	if e.done() {
		clear(mask[:splendor.NumActions])
		return
	}
	e.s.Legal(&e.legal)
	bitset.WriteBytes(mask[:splendor.NumActions], e.legal[:])
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
