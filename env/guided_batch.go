package env

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/splendor-rl/splendor/env/bots"
	"github.com/splendor-rl/splendor/internal/bitset"
)

// Guider is implemented by envs that can run guided searches (bots.Search)
// of their game: search over the wire with the client's network as the
// evaluator.
type Guider interface {
	GuidedSearch(set bots.GuidedSettings, seed uint64) bots.Search
}

// ErrBadEvaluation reports evaluations a guided search refuses: not finite,
// negative priors, no prior mass on any legal action, a value outside
// [−1, 1]. Nothing changes; the caller may answer again.
var ErrBadEvaluation = errors.New("bad evaluation")

// GuidedBatch is a guided search of several envs at once whose leaves the
// caller evaluates: it holds the leaves asked for now (row j a leaf of env
// LeafEnvs[j]: its seat to play's own observation, whatever obs_seats, and
// its mask), takes their evaluations (Evaluate), and once no leaf is left
// holds each env's improved policy, root value and action. Each env's
// search is run to its next leaves in parallel; the batch is deterministic
// given the seeds and the evaluations.
type GuidedBatch struct {
	v        *Vector
	ids      []int
	searches []bots.Search // nil once done, or for an env whose episode is over
	obsSize  int           // one seat's observation
	perEnv   int           // leaves an env may have out at once (LeavesPerEnv)
	// Each env's slots for its leaves (perEnv of them) and how many it
	// filled in the last round.
	slotObs, slotMask []uint8
	filled            []int
	rows              []int // where each env's leaves start in the batch, and their end
	// The round being run: its evaluations (advance), and stepK as the
	// vector's op.
	priorsIn, valuesIn []float32
	widthIn            int // values a leaf: 1 or Players
	stepEach           func(k int)
	// The leaves asked for now.
	LeafEnvs   []int32
	LeafObs    []uint8   // [L, obs]
	LeafObsF32 []float32 // the same, for float32 envs
	LeafMask   []uint8   // [L, actions]
	Legal      int       // the leaves' legal actions in all: the ones of LeafMask
	dense      []float32 // EvaluateLegal's priors over the whole action space
	// The results, row k for ids[k]: Policy [K, actions], Value [K] (the
	// root's value for its seat to play), Values [K, Players] (every
	// seat's, from the seat to play's view: bots.Targets; column 0 is
	// Value), Action [K] (−1, zeros, 0 for an env whose episode is over).
	Policy []float32
	Value  []float32
	Values []float32
	Action []int32
}

// StartGuided starts a guided search in each env of ids (nil: all) with
// set, env ids[k] drawing from seeds[k], or with seeds nil env i from
// rng.Derive(seed, i), and runs them to their first leaves (with
// set.Playouts, to their end).
func (v *Vector) StartGuided(ids []int, set bots.GuidedSettings, seed uint64, seeds []uint64) (*GuidedBatch, error) {
	if err := v.CheckGuided(ids, seeds); err != nil {
		return nil, err
	}
	ids = v.idsOrAll(ids)
	seeds, _ = v.botSeeds(ids, seed, seeds)
	k, na := len(ids), v.Spec.NumActions
	b := &GuidedBatch{v: v, ids: ids, searches: make([]bots.Search, k), obsSize: v.seatObsSize(), perEnv: set.LeavesPerEnv,
		filled: make([]int, k), rows: make([]int, k+1), Policy: make([]float32, k*na), Value: make([]float32, k),
		Values: make([]float32, k*v.Spec.Players), Action: make([]int32, k)}
	b.stepEach = b.stepK
	b.slotObs = make([]uint8, k*set.LeavesPerEnv*b.obsSize)
	b.slotMask = make([]uint8, k*set.LeavesPerEnv*na)
	for j, i := range ids {
		b.Action[j] = -1
		if !v.pending[i] && !v.over[i] {
			b.searches[j] = v.envs[i].(Guider).GuidedSearch(set, seeds[j])
		}
	}
	return b, b.advance(set.Playouts, nil, nil, 1)
}

// CheckGuided refuses what StartGuided would refuse, before anything
// starts: a caller may end the search it replaces only then.
func (v *Vector) CheckGuided(ids []int, seeds []uint64) error {
	if _, ok := v.envs[0].(Guider); !ok {
		return fmt.Errorf("%w: %s has no guided search", ErrBadOption, v.Spec.ID)
	}
	_, err := v.botSeeds(v.idsOrAll(ids), 0, seeds)
	return err
}

// ObsSize is the width of a leaf's observation row.
func (b *GuidedBatch) ObsSize() int { return b.obsSize }

// seatObsSize is one seat's observation: a row's, or its share of a row
// that holds every seat's (obs_seats all).
func (v *Vector) seatObsSize() int {
	if len(v.Spec.ObsShape) == 1 {
		return v.obsSize
	}
	return v.obsSize / v.Spec.Players
}

// Done reports that every search has its result.
func (b *GuidedBatch) Done() bool { return len(b.LeafEnvs) == 0 }

// Close gives back the memory of searches still running.
func (b *GuidedBatch) Close() {
	for k, s := range b.searches {
		if s != nil {
			s.Release()
			b.searches[k] = nil
		}
	}
}

// Evaluate answers the leaves: priors [L, actions] and values, [L] (each
// leaf's seat to play's) or [L, Players] (every seat's, from the leaf's
// seat to play's view: bots.Search). Every row is checked before any
// search moves; then the searches back them up and run to their next
// leaves.
func (b *GuidedBatch) Evaluate(priors, values []float32) error {
	l, na := len(b.LeafEnvs), b.v.Spec.NumActions
	w, err := b.valueWidth(values)
	if err != nil || len(priors) != l*na {
		return fmt.Errorf("%w: want priors [%d, %d] and values [%d] or [%[4]d, %[5]d] for the %[4]d leaves, got %d priors and %d values",
			ErrBadShape, l, na, l, b.v.Spec.Players, len(priors), len(values))
	}
	for j := range l {
		if err := checkEvaluation(priors[j*na:(j+1)*na], b.LeafMask[j*na:(j+1)*na], values[j*w:(j+1)*w]); err != nil {
			return fmt.Errorf("%w: leaf %d (env %d): %v", ErrBadEvaluation, j, b.LeafEnvs[j], err)
		}
	}
	return b.advance(false, priors, values, w)
}

// valueWidth is how many values a leaf's row of values holds, 1 or
// Players, refusing another length.
func (b *GuidedBatch) valueWidth(values []float32) (int, error) {
	l := len(b.LeafEnvs)
	for _, w := range [2]int{1, b.v.Spec.Players} {
		if len(values) == l*w {
			return w, nil
		}
	}
	return 0, ErrBadShape
}

// EvaluateLegal is Evaluate with each leaf's priors of its legal actions
// only: Legal of them, leaf after leaf, in action order. Each row is checked
// as it is spread over the action space, in one pass.
func (b *GuidedBatch) EvaluateLegal(legal, values []float32) error {
	l, na := len(b.LeafEnvs), b.v.Spec.NumActions
	w, err := b.valueWidth(values)
	if err != nil || len(legal) != b.Legal {
		return fmt.Errorf("%w: want the priors of the leaves' %d legal actions and %d or %d values, got %d and %d",
			ErrBadShape, b.Legal, l, l*b.v.Spec.Players, len(legal), len(values))
	}
	b.dense = slices.Grow(b.dense[:0], l*na)[:l*na]
	clear(b.dense)
	k := 0
	for j := range l {
		row, mask, mass := b.dense[j*na:(j+1)*na], b.LeafMask[j*na:(j+1)*na], 0.0
		for a := 0; a < na; a++ {
			if a%8 == 0 && a+8 <= na && binary.LittleEndian.Uint64(mask[a:]) == 0 {
				a += 7 // eight illegal actions at once: most are
				continue
			}
			if mask[a] == 1 {
				p := legal[k]
				if err := checkPrior(a, p); err != nil {
					return fmt.Errorf("%w: leaf %d (env %d): %v", ErrBadEvaluation, j, b.LeafEnvs[j], err)
				}
				row[a], mass, k = p, mass+float64(p), k+1
			}
		}
		if err := checkValuesAndMass(values[j*w:(j+1)*w], mass); err != nil {
			return fmt.Errorf("%w: leaf %d (env %d): %v", ErrBadEvaluation, j, b.LeafEnvs[j], err)
		}
	}
	return b.advance(false, b.dense, values, w)
}

// PackedMasks appends the leaves' masks as bits to dst: row j is
// ⌈actions/8⌉ bytes, action a its byte a/8's bit a%8 (numpy's unpackbits
// with bitorder "little").
func (b *GuidedBatch) PackedMasks(dst []uint8) []uint8 {
	na := b.v.Spec.NumActions
	for j := range len(b.LeafEnvs) {
		dst = bitset.AppendBytes(dst, b.LeafMask[j*na:(j+1)*na])
	}
	return dst
}

// checkEvaluation refuses one leaf's bad evaluation.
func checkEvaluation(priors []float32, mask []uint8, values []float32) error {
	mass := 0.0
	for a, p := range priors {
		if err := checkPrior(a, p); err != nil {
			return err
		}
		if mask[a] == 1 {
			mass += float64(p)
		}
	}
	return checkValuesAndMass(values, mass)
}

// checkPrior refuses a prior that is not a finite number ≥ 0.
func checkPrior(a int, p float32) error {
	if math.IsNaN(float64(p)) || math.IsInf(float64(p), 0) || p < 0 {
		return fmt.Errorf("prior of action %d is %v: want a finite number >= 0", a, p)
	}
	return nil
}

// checkValuesAndMass refuses a value outside [−1, 1] or a leaf's priors
// with no mass on its legal actions.
func checkValuesAndMass(values []float32, mass float64) error {
	for k, value := range values {
		switch {
		case value >= -1 && value <= 1:
		case len(values) == 1:
			return fmt.Errorf("value %v is not in [-1, 1]", value)
		default:
			return fmt.Errorf("value %v (column %d) is not in [-1, 1]", value, k)
		}
	}
	if mass <= 0 {
		return fmt.Errorf("no prior mass on any legal action")
	}
	return nil
}
