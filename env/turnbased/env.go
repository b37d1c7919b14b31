package turnbased

import (
	"fmt"
	"math"
	"sync/atomic"

	"github.com/splendor-rl/splendor/env"
	"github.com/splendor-rl/splendor/env/bots"
	"github.com/splendor-rl/splendor/internal/rng"
)

// Env is one game of G as an env.Env: the client acts for the seat to play
// (self-play) or for its own seat while the built-in bots play the others
// (vs-bots). Copying an Env copies the game.
type Env[S any, G Rules[S]] struct {
	game      *Game[S, G]
	c         config
	s         S
	seats     Seating
	bots      [bots.MaxSeats]rng.Rand // each bot's stream
	rewards   [bots.MaxSeats]float32
	potential [bots.MaxSeats]float32 // score_diff shaping, at the client's last decision
	// The game's seat to play and end, as of its last change (sync):
	// the step path asks for them a dozen times.
	toPlay int
	over   bool
	stop   *atomic.Bool // the batch's: its bots' searches end early once set
}

// sync reads the seat to play and the end of a game put on the table.
func (e *Env[S, G]) sync() {
	g := e.rules()
	e.toPlay, e.over = g.ToPlay(), g.Over()
}

func (g *Game[S, G]) newEnv(c config) *Env[S, G] {
	return &Env[S, G]{game: g, c: c, seats: Seating{Mode: c.mode, Players: c.players, FixedSeat: c.seat,
		MaxTurns: uint32(c.maxRounds * c.players)}}
}

// rules is the game as its methods see it.
func (e *Env[S, G]) rules() G { return G(&e.s) }

// Reset deals a new game from seed; in vs-bots mode the bots seated before
// the client play their first turns.
func (e *Env[S, G]) Reset(seed uint64) {
	e.s = e.game.Deal(e.c.players, seed)
	if e.game.Payment != nil {
		*e.game.Payment(&e.s) = e.c.choose
	}
	e.sync()
	e.seats.Start(seed)
	for i := range e.c.players {
		e.bots[i] = rng.New(BotSeed(seed, i))
	}
	e.playBots()
	e.rewards = [bots.MaxSeats]float32{}
	e.potential = e.potentials()
}

// Step plays the client's decision, then, in vs-bots mode, the bots' until
// the client is to play again or the episode ends.
func (e *Env[S, G]) Step(action int) error {
	if e.Done() {
		return fmt.Errorf("%w: the episode is over", env.ErrIllegalAction)
	}
	e.rewards = [bots.MaxSeats]float32{}
	if err := e.apply(action); err != nil {
		return fmt.Errorf("%w: %v", env.ErrIllegalAction, err)
	}
	e.playBots()
	e.score()
	return nil
}

func (e *Env[S, G]) apply(action int) error {
	seat, g := e.toPlay, e.rules()
	if err := g.Apply(action); err != nil {
		return err
	}
	var turns uint32
	e.toPlay, turns, e.over = g.Progress()
	e.seats.Played(seat, turns, e.over)
	return nil
}

func (e *Env[S, G]) playBots() {
	for e.seats.BotToPlay(e.toPlay, e.over) {
		seat := e.toPlay
		action := e.act(e.c.bots[seat], &e.bots[seat], bots.Targets{})
		if err := e.apply(action); err != nil {
			panic(e.game.ID + ": a bot chose an illegal action: " + err.Error())
		}
	}
}

// Done reports the end of the episode: the game is over or was cut short.
func (e *Env[S, G]) Done() bool { return e.seats.Done(e.over) }

// Status reports a blocked game as truncated (see Seating).
func (e *Env[S, G]) Status() (terminated, truncated bool) {
	return e.seats.Status(e.over, e.blocked())
}

// blocked reports a game over because nobody could ever act again, which
// nobody wins: no result of play, so the env reports it as truncated.
func (e *Env[S, G]) blocked() bool { return e.over && e.rules().Winners() == 0 }

// ToPlay is the seat whose decision or observation is served.
func (e *Env[S, G]) ToPlay() int {
	return e.seats.ToPlay(e.toPlay, e.over)
}

// Mask writes the legal actions as 0/1 bytes: none once the episode is over.
func (e *Env[S, G]) Mask(mask []uint8) {
	mask = mask[:e.game.NumActions]
	if e.Done() {
		clear(mask)
		return
	}
	e.rules().WriteMask(mask)
}

// Rewards writes each seat's reward for the last step.
func (e *Env[S, G]) Rewards(r []float32) { copy(r, e.rewards[:e.c.players]) }

// Report is what the step path asks after every step, in one call.
func (e *Env[S, G]) Report(obs, mask []uint8, rewards []float32) (toPlay int, terminated, truncated bool) {
	toPlay = e.ToPlay()
	if obs != nil {
		e.observe(obs, toPlay, toPlay)
	}
	e.Mask(mask)
	if rewards != nil {
		e.Rewards(rewards)
	}
	terminated, truncated = e.Status()
	return toPlay, terminated, truncated
}

// Observe writes the observation of ToPlay's seat.
func (e *Env[S, G]) Observe(obs []uint8) { e.ObserveSeat(e.ToPlay(), obs) }

// ObserveSeat writes the table as seat me sees it.
func (e *Env[S, G]) ObserveSeat(me int, obs []uint8) { e.observe(obs, me, e.ToPlay()) }

// Resample redeals what the seat to play cannot see.
func (e *Env[S, G]) Resample(seed uint64) { e.ResampleSeat(e.ToPlay(), seed) }

// ResampleSeat redeals what seat me cannot see (the engine's Redeal).
func (e *Env[S, G]) ResampleSeat(me int, seed uint64) {
	r := rng.New(seed)
	e.rules().Redeal(me, &r)
}

// Clone copies the env, game and bots' streams included.
func (e *Env[S, G]) Clone() env.Env {
	c := *e
	return &c
}

// CopyFrom takes src's whole state; src is an env of the same batch.
func (e *Env[S, G]) CopyFrom(src env.Env) { *e = *src.(*Env[S, G]) }

// BotAction is the action bot would choose now, drawing from seed, with a
// searching bot's targets where asked (env.Advisor).
func (e *Env[S, G]) BotAction(bot bots.Spec, seed uint64, t bots.Targets) (action int) {
	r := rng.New(seed)
	return e.act(bot, &r, t)
}

// SearchIterations adds up one decision of every bot's search (mcts
// iterations, baseline+search simulations) in vs-bots mode (env.Searcher).
// The client's seat plays no bot: with a fixed seat its bot is left out,
// with a seat drawn per episode the cheapest, as the costliest table is
// the one budgeted.
func (e *Env[S, G]) SearchIterations() int {
	if e.c.mode != env.VsBots {
		return 0
	}
	total, cheapest := 0, math.MaxInt
	for seat, b := range e.c.bots[:e.c.players] {
		cost := 0
		if b.Searches() {
			cost = b.Cost()
		}
		total += cost
		if e.c.seat < 0 || seat == e.c.seat {
			cheapest = min(cheapest, cost)
		}
	}
	return total - cheapest
}

// StopWith makes the env's searches end early once stop is set
// (env.Stopper).
func (e *Env[S, G]) StopWith(stop *atomic.Bool) { e.stop = stop }

// View is the game as viewer sees it, with the episode's fields (over as
// the Vector knows it), and as a text board (env.Viewer).
func (e *Env[S, G]) View(viewer int, over bool) (view any, board string) {
	g := e.rules()
	return g.View(viewer, e.seats.Episode(over, e.over, g.Winners()))
}

// State returns a copy of the game, hidden information included (for tools
// and tests, never for observations).
func (e *Env[S, G]) State() S { return e.s }

// Load puts game s on the table as it is, the episode's bookkeeping
// unchanged: tools and tests that start from a position.
func (e *Env[S, G]) Load(s S) {
	e.s = s
	e.sync()
}

// String is the game in the engine's notation (hidden information included).
func (e *Env[S, G]) String() string { return e.rules().String() }
