package env

import (
	"fmt"
	"sync"

	"github.com/splendor-rl/splendor/internal/rng"
)

// Vector is N envs of one id and options stepped together: one call steps
// all of them, spread over a Pool, writing into contiguous buffers that are
// allocated once. Row i of every buffer belongs to env i.
//
// Seeds: Make with seed s deals env i's first episode from s+i (Gymnasium's
// convention); each later episode of an env is dealt from
// rng.Derive(previous episode's seed, 1), unless Reset names its seed.
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
	// observation while Obs already shows the next episode.
	Ended       []bool
	FinalObs    []uint8
	FinalObsF32 []float32

	envs     []Env
	seeds    []uint64 // each env's current episode seed
	pending  []bool   // next-step autoreset: reset on the next step
	over     []bool   // disabled autoreset: ended, waiting for Reset
	obsSize  int
	actions  []int32 // the batch being stepped
	resetIDs []int   // the envs being reset, with resetSeeds
	resetSeq []uint64
	resetOp  bool
	pool     *Pool
	wg       sync.WaitGroup
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

// Make builds n envs of id with opts and resets env i with seed+i. Besides the
// game's options it reads "autoreset" and "obs_dtype". A nil pool means
// DefaultPool.
func Make(id string, n int, opts Options, seed uint64, pool *Pool) (*Vector, error) {
	g, err := lookup(id)
	if err != nil {
		return nil, err
	}
	if n < 1 {
		return nil, fmt.Errorf("%w: num_envs must be at least 1, got %d", ErrBadOption, n)
	}
	o := NewOptionReader(opts)
	autoreset := Autoreset(o.String("autoreset", string(NextStep), string(NextStep), string(SameStep), string(Disabled)))
	dtype := Dtype(o.String("obs_dtype", string(Uint8), string(Uint8), string(Float32)))
	spec, newEnv := g.Make(o)
	if err := o.Check(); err != nil {
		return nil, err
	}
	spec.Autoreset, spec.ObsDtype = autoreset, dtype
	if pool == nil {
		pool = DefaultPool()
	}
	v := newVector(spec, n, pool)
	for i := range v.envs {
		v.envs[i] = newEnv()
	}
	seeds := make([]uint64, n)
	for i := range seeds {
		seeds[i] = seed + uint64(i)
	}
	v.reset(nil, seeds)
	return v, nil
}

func newVector(spec Spec, n int, pool *Pool) *Vector {
	size := spec.ObsSize()
	v := &Vector{Spec: spec, obsSize: size, pool: pool,
		Obs: make([]uint8, n*size), Mask: make([]uint8, n*spec.NumActions),
		Rewards: make([]float32, n*spec.Players), Terminated: make([]bool, n), Truncated: make([]bool, n),
		ToPlay: make([]int32, n), Ended: make([]bool, n),
		envs: make([]Env, n), seeds: make([]uint64, n), pending: make([]bool, n), over: make([]bool, n)}
	if spec.ObsDtype == Float32 {
		v.ObsF32 = make([]float32, n*size)
	}
	if spec.Autoreset == SameStep {
		v.FinalObs = make([]uint8, n*size)
		if spec.ObsDtype == Float32 {
			v.FinalObsF32 = make([]float32, n*size)
		}
	}
	return v
}

// Len is the number of envs.
func (v *Vector) Len() int { return len(v.envs) }

// Env returns env i, for tools and tests that look inside one game.
func (v *Vector) Env(i int) Env { return v.envs[i] }

// Seeds returns each env's current episode seed.
func (v *Vector) Seeds() []uint64 { return v.seeds }

// Reset starts new episodes in the envs listed in ids (nil: all). seeds, if
// not nil, gives one seed per listed env; otherwise each env continues its
// own seed sequence.
func (v *Vector) Reset(ids []int, seeds []uint64) error {
	if ids == nil {
		ids = make([]int, len(v.envs))
		for i := range ids {
			ids[i] = i
		}
	}
	for _, i := range ids {
		if i < 0 || i >= len(v.envs) {
			return fmt.Errorf("%w: env index %d outside [0, %d)", ErrBadShape, i, len(v.envs))
		}
	}
	if seeds == nil {
		seeds = make([]uint64, len(ids))
		for k, i := range ids {
			seeds[k] = rng.Derive(v.seeds[i], nextEpisodeStream)
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
	v.pool.run(v, n)
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
	v.pool.run(v, len(v.envs))
	v.actions = nil
	return nil
}

func (v *Vector) validate(actions []int32) error {
	var bad *ActionError
	na := int32(v.Spec.NumActions)
	for i, a := range actions {
		reason := ""
		switch {
		case v.pending[i]:
			continue
		case v.over[i]:
			reason = "episode over: reset the env first"
		case a < 0 || a >= na:
			reason = fmt.Sprintf("action %d outside [0, %d)", a, na)
		case v.Mask[i*int(na)+int(a)] == 0:
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
		return bad
	}
	return nil
}

// work runs the current operation on envs [lo, hi) (for a reset: on the
// listed envs at positions [lo, hi) of the list).
func (v *Vector) work(lo, hi int) {
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
	v.Ended[i] = false
	if v.pending[i] {
		v.start(i, rng.Derive(v.seeds[i], nextEpisodeStream))
		return
	}
	e := v.envs[i]
	if err := e.Step(int(v.actions[i])); err != nil {
		panic(fmt.Sprintf("env: validated action refused: %v", err)) // validate and Mask disagree: a bug
	}
	players := v.Spec.Players
	e.Rewards(v.Rewards[i*players : (i+1)*players])
	term, trunc := e.Status()
	v.Terminated[i], v.Truncated[i] = term, trunc
	if !term && !trunc {
		v.observe(i, v.Obs, v.ObsF32)
		return
	}
	switch v.Spec.Autoreset {
	case NextStep:
		v.observe(i, v.Obs, v.ObsF32)
		v.pending[i] = true
	case SameStep:
		v.observe(i, v.FinalObs, v.FinalObsF32)
		v.Ended[i] = true
		v.seeds[i] = rng.Derive(v.seeds[i], nextEpisodeStream)
		v.envs[i].Reset(v.seeds[i])
		v.observe(i, v.Obs, v.ObsF32)
	case Disabled:
		v.observe(i, v.Obs, v.ObsF32)
		v.over[i] = true
	}
}

// start deals env i's new episode from seed and clears its step results.
func (v *Vector) start(i int, seed uint64) {
	v.seeds[i] = seed
	v.envs[i].Reset(seed)
	v.pending[i], v.over[i], v.Terminated[i], v.Truncated[i] = false, false, false, false
	players := v.Spec.Players
	clear(v.Rewards[i*players : (i+1)*players])
	v.observe(i, v.Obs, v.ObsF32)
}

// observe writes env i's observation into row i of obs (and of obsF32 when
// the env serves float32), its mask and the seat to play.
func (v *Vector) observe(i int, obs []uint8, obsF32 []float32) {
	e := v.envs[i]
	row := obs[i*v.obsSize : (i+1)*v.obsSize]
	e.Observe(row)
	if obsF32 != nil {
		f := obsF32[i*v.obsSize : (i+1)*v.obsSize]
		for k, x := range row {
			f[k] = float32(x)
		}
	}
	na := v.Spec.NumActions
	e.Mask(v.Mask[i*na : (i+1)*na])
	v.ToPlay[i] = int32(e.ToPlay())
}
