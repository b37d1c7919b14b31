// Package env is the Gym-style contract every game environment follows, and
// the machinery they share: specs, options, the registry, seeds and the
// batched Vector with its autoreset modes. It knows no game: games register
// themselves (env/splendorenv, …) and the wire and server build on it.
package env

import (
	"errors"
	"sync/atomic"

	"github.com/splendor-rl/splendor/env/bots"
)

// Env is one game instance as the client sees it: the client acts for the
// seat to play (self-play) or for its own seat while built-in bots play the
// others (vs-bots). Implementations are single-threaded; Vector runs many.
type Env interface {
	// Reset starts a new episode dealt from seed.
	Reset(seed uint64)
	// Step plays the client's decision. An illegal action returns an error
	// wrapping ErrIllegalAction and changes nothing.
	Step(action int) error
	// Observe writes the observation of the seat to play (at the end of an
	// episode: of the seat that made the last decision) into obs.
	Observe(obs []uint8)
	// ObserveSeat writes the table as seat sees it, with what that seat
	// cannot see hidden exactly as in Observe (for every seat's view).
	ObserveSeat(seat int, obs []uint8)
	// Mask writes 1 for each legal action and 0 elsewhere; all zeros once
	// the episode is over.
	Mask(mask []uint8)
	// ToPlay is the seat whose decision is expected (current_player).
	ToPlay() int
	// Rewards writes each seat's reward earned since the client's previous
	// decision (len = Spec.Players).
	Rewards(r []float32)
	// Status reports whether the episode ended by the rules (terminated) or
	// was cut short (truncated: turn limit, a blocked game).
	Status() (terminated, truncated bool)
	// Report is Observe (obs nil: none), Mask, Rewards (nil: none), ToPlay
	// and Status in one call: what the step path asks after every step.
	Report(obs, mask []uint8, rewards []float32) (toPlay int, terminated, truncated bool)
}

// Cloner is implemented by envs that can copy themselves, for search and for
// the conformance suite (which tries every action on clones).
type Cloner interface {
	Clone() Env
}

// Resampler is implemented by envs with hidden information, for the
// conformance suite: ResampleSeat redeals everything seat cannot see (deck
// order, other seats' hidden cards…) from seed, leaving all it can see
// unchanged; Resample does it for the seat to play.
type Resampler interface {
	Resample(seed uint64)
	ResampleSeat(seat int, seed uint64)
}

// Snapshotter is implemented by envs whose whole state, hidden information
// and the env's own bookkeeping (seats, bots' random streams, rewards)
// included, can be written as text and loaded back exactly: search over the
// wire (get_state, set_state).
type Snapshotter interface {
	Snapshot() string
	// Restore loads text, refusing (with an error wrapping ErrBadState) any
	// that is not a valid state of this env's options; on error nothing
	// changes.
	Restore(text string) error
}

// Copier is implemented by envs that can take another env's whole state
// without allocating (fork over the wire); src has the same id and options.
type Copier interface {
	CopyFrom(src Env)
}

// Advisor is implemented by envs whose built-in bots can say what they would
// play now, without playing it.
type Advisor interface {
	// BotAction is the action bot chooses for the seat to play, drawing
	// from seed; the env does not change. A bot that searches also writes
	// its search's targets where asked (bots.Targets: NumActions entries of
	// policy, Players values; Vector.BotTargets).
	BotAction(bot bots.Spec, seed uint64, t bots.Targets) (action int)
	// CanPlay refuses, with an error saying why, a bot the env does not
	// have (a baseline bot where no network plays its game at its size).
	CanPlay(bot bots.Spec) error
}

// Stopper is implemented by envs whose built-in bots search: a search
// stops early once stop is set (the Vector's Stop), so that a closed batch
// holds no core.
type Stopper interface {
	StopWith(stop *atomic.Bool)
}

// Errors every env and the layers above share; the wire maps each to a code.
var (
	ErrIllegalAction = errors.New("illegal action")
	ErrBadOption     = errors.New("bad option")
	ErrUnknownEnv    = errors.New("unknown env id")
	ErrBadShape      = errors.New("bad shape")
	ErrBadState      = errors.New("bad state")
	ErrStopped       = errors.New("the batch was closed while it ran")
)
