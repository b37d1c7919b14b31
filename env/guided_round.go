package env

import (
	"bytes"
	"slices"

	"github.com/splendor-rl/splendor/env/bots"
)

// A round of a GuidedBatch: each env's search takes the evaluations of its
// leaves (its rows of the last batch, contiguous and in the order it asked)
// and runs to its next ones, writing them into its slots; then the slots
// are gathered into the next batch of leaves.

// guidedChunk is how many envs' searches a worker advances at a time: a
// round is a few microseconds of tree work per env.
const guidedChunk = 16

// advance runs one round; priors and values are the last batch's
// evaluations (nil at the start), width values a leaf. Searches that
// evaluate their own leaves run in search slots; the others on the pool.
func (b *GuidedBatch) advance(playouts bool, priors, values []float32, width int) error {
	v := b.v
	rows := b.rows // env k's rows of the last batch: [rows[k], rows[k+1])
	for k, n := range b.filled {
		rows[k+1] = rows[k] + n
	}
	b.priorsIn, b.valuesIn, b.widthIn = priors, values, width
	v.each = b.stepEach
	if playouts {
		v.runSearches(len(b.ids))
	} else {
		v.pool.run(v, len(b.ids), guidedChunk)
	}
	v.each, b.priorsIn, b.valuesIn = nil, nil, nil
	if v.stopped.Load() {
		return ErrStopped
	}
	b.gather()
	return nil
}

// stepK is step of env k with its rows of the round's evaluations: the
// round's work per env, made once per batch (a closure made per round
// would be an allocation per round).
func (b *GuidedBatch) stepK(k int) {
	row := b.rows[k]
	b.step(k, b.priorsIn[min(row*b.v.Spec.NumActions, len(b.priorsIn)):], b.valuesIn[min(row*b.widthIn, len(b.valuesIn)):])
}

// step answers env k's leaves (its first filled rows of priors and
// values, widthIn values a row) and advances its search to its next leaves
// or its end.
func (b *GuidedBatch) step(k int, priors, values []float32) {
	s := b.searches[k]
	if s == nil || b.v.stopped.Load() { // stopped: the round's results are not read
		return
	}
	na, w := b.v.Spec.NumActions, b.widthIn
	for j := range b.filled[k] {
		s.Expand(priors[j*na:(j+1)*na], values[j*w:(j+1)*w])
	}
	per := b.perEnv
	n := 0
	for ; n < per; n++ {
		obs := b.slotObs[(k*per+n)*b.obsSize : (k*per+n+1)*b.obsSize]
		if s.Next(obs, b.slotMask[(k*per+n)*na:(k*per+n+1)*na]) != bots.Leaf {
			break
		}
	}
	b.filled[k] = n
	if n == 0 { // nothing out and nothing more to ask: done
		b.finish(k)
	}
}

// finish takes env k's result and lets its search go.
func (b *GuidedBatch) finish(k int) {
	na, players := b.v.Spec.NumActions, b.v.Spec.Players
	values := b.Values[k*players : (k+1)*players]
	b.Action[k] = int32(b.searches[k].Result(bots.Targets{Policy: b.Policy[k*na : (k+1)*na], Values: values}))
	b.Value[k] = values[0]
	b.searches[k].Release()
	b.searches[k] = nil
}

// gather copies every env's filled slots into the batch of leaves.
func (b *GuidedBatch) gather() {
	na, per := b.v.Spec.NumActions, b.perEnv
	b.LeafEnvs, b.LeafObs, b.LeafMask = b.LeafEnvs[:0], b.LeafObs[:0], b.LeafMask[:0]
	for k, n := range b.filled {
		for j := range n {
			slot := k*per + j
			b.LeafEnvs = append(b.LeafEnvs, int32(b.ids[k]))
			b.LeafObs = append(b.LeafObs, b.slotObs[slot*b.obsSize:(slot+1)*b.obsSize]...)
			b.LeafMask = append(b.LeafMask, b.slotMask[slot*na:(slot+1)*na]...)
		}
	}
	b.Legal = bytes.Count(b.LeafMask, []byte{1})
	if b.v.Spec.ObsDtype == Float32 {
		b.LeafObsF32 = slices.Grow(b.LeafObsF32[:0], len(b.LeafObs))[:len(b.LeafObs)]
		widen(b.LeafObsF32, b.LeafObs)
	}
}
