package env

import (
	"fmt"
	"reflect"
	"sync/atomic"

	"github.com/splendor-rl/splendor/internal/rng"
)

// Vector is N envs of one id and options stepped together: one call steps
// all of them, spread over a Pool, writing into contiguous buffers that are
// allocated once. Row i of every buffer belongs to env i.
//
// Seeds: a Vector made with seed s deals env i's first episode from s+i
// (Gymnasium's convention); each later episode of an env is dealt from
// rng.Derive(previous episode's seed, 1), unless Reset names its seed.
// A new Vector must be Reset before it is stepped.
type Vector struct {
	Spec Spec

	Obs        []uint8   // [N, obs]: observations as small integers
	ObsF32     []float32 // [N, obs]: the same as float32, when Spec.ObsDtype is float32
	Mask       []uint8   // [N, actions]: 1 where the action is legal
	Rewards    []float32 // [N, players]: per seat, since the previous step
	Terminated []bool    // [N]
	Truncated  []bool    // [N]
	ToPlay     []int32   // [N]: the seat whose decision is expected
	// Same-step autoreset: Ended[i] marks an env whose episode ended in the
	// last step; FinalObs row i (FinalObsF32 for float32) holds its last
	// observation, that of seat FinalSeat[i], while Obs already shows the
	// next episode.
	Ended       []bool
	FinalObs    []uint8
	FinalObsF32 []float32
	FinalSeat   []int32

	envs     []Env
	seeds    []uint64 // each env's current episode seed
	next     []uint64 // each env's next episode seed
	pending  []bool   // next-step autoreset: reset on the next step
	over     []bool   // not started, or ended with autoreset disabled: waiting for Reset
	fresh    []bool   // never dealt: no game, its rows zeros
	forfeit  []bool   // this step's action is illegal and the env forfeits it
	obsSize  int
	actions  []int32 // the batch being stepped
	resetIDs []int   // the envs being reset, with resetSeeds
	resetSeq []uint64
	resetOp  bool
	each     func(k int) // an op other than step and reset, for position k of [0, n)
	pool     *Pool
	// The batch being run (Pool.run): its size, the chunk each claim takes,
	// the envs not yet claimed and those done, and a signal from the worker
	// that completes it to a caller parked in await.
	batchSize, chunk, remaining, done atomic.Int64
	runAt                             atomic.Int64 // unix nanos when the batch was handed out
	parked                            atomic.Bool
	finished                          chan struct{}
	panicked                          atomic.Pointer[any] // a worker's panic, re-raised by the caller
	stopped                           atomic.Bool         // Stop: searches end early
	searchIterations                  int                 // Searcher's: steps run as searches when positive
}

// nextEpisodeStream derives an env's next episode seed from its last one.
const nextEpisodeStream = 1

// ActionError reports illegal actions in a batch; nothing was stepped.
type ActionError struct {
	Envs   []int  // offending env indices
	Reason string // what was wrong with the first
}

func (e *ActionError) Error() string {
	return fmt.Sprintf("%v in env(s) %v: %s", ErrIllegalAction, e.Envs, e.Reason)
}

func (e *ActionError) Unwrap() error { return ErrIllegalAction }

// Make builds n envs of id with opts whose first episodes will be dealt from
// seed+i. Besides the game's options it reads "autoreset", "obs_dtype" and
// "illegal_action". A nil pool means DefaultPool.
func Make(id string, n int, opts Options, seed uint64, pool *Pool) (*Vector, error) {
	g, err := lookup(id)
	if err != nil {
		return nil, err
	}
	if n < 1 {
		return nil, fmt.Errorf("%w: num_envs must be at least 1, got %d", ErrBadOption, n)
	}
	o := NewOptionReader(opts)
	spec, newEnv := readOptions(g, o)
	if err := o.Check(); err != nil {
		return nil, err
	}
	spec.Options = o.Applied()
	if pool == nil {
		pool = DefaultPool()
	}
	v := newVector(spec, n, pool)
	for i := range v.envs {
		v.envs[i] = newEnv()
		if s, ok := v.envs[i].(Stopper); ok {
			s.StopWith(&v.stopped)
		}
	}
	if s, ok := v.envs[0].(Searcher); ok {
		v.searchIterations = s.SearchIterations()
	}
	for i := range v.next {
		v.next[i] = seed + uint64(i)
		v.over[i], v.fresh[i] = true, true
	}
	return v, nil
}

// readOptions reads the batch's options and the game's.
func readOptions(g Game, o *OptionReader) (Spec, func() Env) {
	autoreset := Autoreset(o.String("autoreset", string(NextStep), string(NextStep), string(SameStep), string(Disabled)))
	dtype := Dtype(o.String("obs_dtype", string(Uint8), string(Uint8), string(Float32)))
	illegal := IllegalPolicy(o.String("illegal_action", string(IllegalError), string(IllegalError), string(IllegalForfeit)))
	seats := o.String("obs_seats", ObsToPlay, ObsToPlay, ObsEverySeat)
	spec, newEnv := g.Make(o)
	spec.Autoreset, spec.ObsDtype, spec.IllegalAction = autoreset, dtype, illegal
	if seats == ObsEverySeat {
		spec.ObsShape = append([]int{spec.Players}, spec.ObsShape...)
	}
	return spec, newEnv
}

// The obs_seats option: whose observations a row holds.
const (
	ObsToPlay    = "to_play" // the seat to play's (what a policy acting now needs)
	ObsEverySeat = "all"     // every seat's view, seat 0 first: shape [players, obs] (for centralised critics)
)

// Describe lists the options env id accepts, with their types, defaults and
// allowed values (ranges and list lengths as for the default values of the
// options read before them: seat and bots follow players).
func Describe(id string) ([]OptionSpec, error) {
	g, err := lookup(id)
	if err != nil {
		return nil, err
	}
	o := NewOptionReader(nil)
	readOptions(g, o)
	return o.Described(), nil
}

func newVector(spec Spec, n int, pool *Pool) *Vector {
	size := spec.ObsSize()
	v := &Vector{Spec: spec, obsSize: size, pool: pool, finished: make(chan struct{}, 1),
		Obs: make([]uint8, n*size), Mask: make([]uint8, n*spec.NumActions),
		Rewards: make([]float32, n*spec.Players), Terminated: make([]bool, n), Truncated: make([]bool, n),
		ToPlay: make([]int32, n), Ended: make([]bool, n),
		envs: make([]Env, n), seeds: make([]uint64, n), next: make([]uint64, n),
		pending: make([]bool, n), over: make([]bool, n), fresh: make([]bool, n), forfeit: make([]bool, n)}
	if spec.ObsDtype == Float32 {
		v.ObsF32 = make([]float32, n*size)
	}
	if spec.Autoreset == SameStep {
		v.FinalObs, v.FinalSeat = make([]uint8, n*size), make([]int32, n)
		if spec.ObsDtype == Float32 {
			v.FinalObsF32 = make([]float32, n*size)
		}
	}
	return v
}

// MemoryPerEnv is an upper estimate of the bytes one env of v holds: its
// game, allocated on its own (rounded up to the allocator's size classes,
// at most 1/8 more), and its rows of every buffer. The server's memory
// budget counts it; a test keeps it above what Make really allocates.
func (v *Vector) MemoryPerEnv() int {
	game := 0
	if t := reflect.TypeOf(v.envs[0]); t.Kind() == reflect.Pointer {
		game = int(t.Elem().Size())
	}
	game += game/8 + 16 + 16 // size-class rounding, the interface value in envs
	obs := v.obsSize * (1 + 4*btoi(v.ObsF32 != nil))
	if v.Spec.Autoreset == SameStep {
		obs *= 2
	}
	flags := 7                                                                       // terminated, truncated, ended, pending, over, forfeit, and a spare
	return game + obs + v.Spec.NumActions + 4*v.Spec.Players + 4 + 8 + 8 + 4 + flags // to_play, seeds, next, actions
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// Stop cuts the batch's searches short, from any goroutine, even while it
// runs: the batch is being closed and no answer of its will be used. An op
// running or started after it may return ErrStopped or results of cut
// searches.
func (v *Vector) Stop() { v.stopped.Store(true) }

// Len is the number of envs.
func (v *Vector) Len() int { return len(v.envs) }

// Env returns env i, for tools and tests that look inside one game.
func (v *Vector) Env(i int) Env { return v.envs[i] }

// Seeds returns each env's current episode seed.
func (v *Vector) Seeds() []uint64 { return v.seeds }

// Reset starts new episodes in the envs listed in ids (nil: all). seeds, if
// not nil, gives one seed per listed env; otherwise each env is dealt its
// next seed (seed+i for its first episode).
func (v *Vector) Reset(ids []int, seeds []uint64) error {
	ids = v.idsOrAll(ids)
	if err := v.checkIDs(ids); err != nil {
		return err
	}
	if seeds == nil {
		seeds = make([]uint64, len(ids))
		for k, i := range ids {
			seeds[k] = v.next[i]
		}
	}
	if len(seeds) != len(ids) {
		return fmt.Errorf("%w: %d seeds for %d envs", ErrBadShape, len(seeds), len(ids))
	}
	v.reset(ids, seeds)
	return nil
}

func (v *Vector) reset(ids []int, seeds []uint64) {
	v.resetIDs, v.resetSeq, v.resetOp = ids, seeds, true
	n := len(v.envs)
	if ids != nil {
		n = len(ids)
	}
	v.run(n)
	v.resetOp = false
}

// Step plays one decision in every env: actions[i] for env i. If any action
// is illegal the whole batch is refused with an *ActionError and nothing
// changes. An env waiting for its next-step autoreset ignores its action.
func (v *Vector) Step(actions []int32) error {
	if len(actions) != len(v.envs) {
		return fmt.Errorf("%w: %d actions for %d envs", ErrBadShape, len(actions), len(v.envs))
	}
	if err := v.validate(actions); err != nil {
		return err
	}
	v.actions = actions
	v.run(len(v.envs))
	v.actions = nil
	return nil
}

// validate checks every action before anything is stepped. Under the forfeit
// policy an in-range illegal action is not an error: it marks its env to
// forfeit.
func (v *Vector) validate(actions []int32) error {
	var bad *ActionError
	na := int32(v.Spec.NumActions)
	for i, a := range actions {
		v.forfeit[i] = false
		reason := ""
		switch {
		case v.over[i]:
			reason = "the env needs a reset"
		case a < 0 || a >= na: // even where the action is ignored: a bad index is a client bug
			reason = fmt.Sprintf("action %d outside [0, %d)", a, na)
		case v.pending[i]:
			continue
		case v.Mask[i*int(na)+int(a)] == 0:
			if v.Spec.IllegalAction == IllegalForfeit {
				v.forfeit[i] = true
				continue
			}
			reason = fmt.Sprintf("action %d (%s) is not legal", a, v.Spec.ActionLabels[a])
		default:
			continue
		}
		if bad == nil {
			bad = &ActionError{Reason: fmt.Sprintf("env %d: %s", i, reason)}
		}
		bad.Envs = append(bad.Envs, i)
	}
	if bad != nil {
		clear(v.forfeit)
		return bad
	}
	return nil
}

// work runs the current operation on envs [lo, hi) (for a reset: on the
// listed envs at positions [lo, hi) of the list).
func (v *Vector) work(lo, hi int) {
	if v.each != nil {
		for k := lo; k < hi; k++ {
			v.each(k)
		}
		return
	}
	if v.resetOp {
		for k := lo; k < hi; k++ {
			i := k
			if v.resetIDs != nil {
				i = v.resetIDs[k]
			}
			v.start(i, v.resetSeq[k])
		}
		return
	}
	for i := lo; i < hi; i++ {
		v.step(i)
	}
}

func (v *Vector) step(i int) {
	v.clearEnded(i)
	if v.pending[i] {
		v.start(i, v.next[i])
		return
	}
	if v.forfeit[i] {
		v.forfeitEpisode(i)
		v.end(i)
		return
	}
	e := v.envs[i]
	if err := e.Step(int(v.actions[i])); err != nil {
		panic(fmt.Sprintf("env: validated action refused: %v", err)) // validate and Mask disagree: a bug
	}
	players := v.Spec.Players
	term, trunc := v.report(i, v.Rewards[i*players:(i+1)*players])
	v.Terminated[i], v.Truncated[i] = term, trunc
	if term || trunc {
		v.end(i)
	}
}

// forfeitEpisode ends env i's episode for an illegal action under the forfeit
// policy: the seat that chose it gets −1, the others share +1, and the last
// observation stays, with an empty mask.
func (v *Vector) forfeitEpisode(i int) {
	players := v.Spec.Players
	row := v.Rewards[i*players : (i+1)*players]
	for seat := range row {
		row[seat] = 1 / float32(players-1)
	}
	row[v.ToPlay[i]] = -1
	v.Terminated[i], v.Truncated[i] = true, false
	na := v.Spec.NumActions
	clear(v.Mask[i*na : (i+1)*na])
}

// end applies the autoreset mode to env i, whose final observation is in
// its Obs row.
func (v *Vector) end(i int) {
	switch v.Spec.Autoreset {
	case NextStep:
		v.pending[i] = true
	case SameStep:
		copy(v.row(v.FinalObs, i), v.row(v.Obs, i))
		if v.ObsF32 != nil {
			copy(v.FinalObsF32[i*v.obsSize:(i+1)*v.obsSize], v.ObsF32[i*v.obsSize:(i+1)*v.obsSize])
		}
		v.Ended[i], v.FinalSeat[i] = true, v.ToPlay[i]
		v.restart(i, v.next[i])
		v.observe(i)
	case Disabled:
		v.over[i] = true
	}
}

// clearEnded forgets a same-step ending reported by the previous step: its
// flag and final observation row go back to zeros.
func (v *Vector) clearEnded(i int) {
	if !v.Ended[i] {
		return
	}
	v.Ended[i] = false
	clear(v.row(v.FinalObs, i))
	if v.FinalObsF32 != nil {
		clear(v.FinalObsF32[i*v.obsSize : (i+1)*v.obsSize])
	}
}

// start deals env i's new episode from seed and clears its step results.
func (v *Vector) start(i int, seed uint64) {
	v.clearEnded(i)
	v.restart(i, seed)
	v.pending[i], v.over[i], v.Terminated[i], v.Truncated[i] = false, false, false, false
	players := v.Spec.Players
	clear(v.Rewards[i*players : (i+1)*players])
	v.observe(i)
}

func (v *Vector) restart(i int, seed uint64) {
	v.seeds[i], v.next[i], v.fresh[i] = seed, rng.Derive(seed, nextEpisodeStream), false
	v.envs[i].Reset(seed)
}

func (v *Vector) row(obs []uint8, i int) []uint8 {
	return obs[i*v.obsSize : (i+1)*v.obsSize]
}

// observe writes env i's observation (and its float32 copy when the env
// serves float32), mask and seat to play into row i.
func (v *Vector) observe(i int) { v.report(i, nil) }

// report is observe, with the env's rewards written into rewards (nil:
// none); it returns the episode's status.
func (v *Vector) report(i int, rewards []float32) (terminated, truncated bool) {
	e := v.envs[i]
	row := v.row(v.Obs, i)
	one := len(v.Spec.ObsShape) == 1 // games observe in one dimension: a leading axis is obs_seats "all"
	obs := row
	if !one {
		obs = nil
	}
	na := v.Spec.NumActions
	toPlay, terminated, truncated := e.Report(obs, v.Mask[i*na:(i+1)*na], rewards)
	if !one {
		per := v.obsSize / v.Spec.Players
		for seat := range v.Spec.Players {
			e.ObserveSeat(seat, row[seat*per:(seat+1)*per])
		}
	}
	if v.ObsF32 != nil {
		widen(v.ObsF32[i*v.obsSize:(i+1)*v.obsSize], row)
	}
	v.ToPlay[i] = int32(toPlay)
	return terminated, truncated
}
