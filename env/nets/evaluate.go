package nets

import (
	"fmt"
	"math"
)

// Evaluator evaluates one Net with scratch buffers of its own, so that
// evaluation allocates nothing. It is for one goroutine at a time; make one
// per goroutine (the Net itself is shared).
type Evaluator struct {
	net   *Net
	at    []int32      // the inputs of the layer to apply that are not zero: their indices,
	by    []float32    // and their values
	trunk [2][]float32 // the trunk's activations, each layer's into the buffer its input is not in
	head  []float32    // the logits, then the values before tanh
}

// NewEvaluator returns an Evaluator of n.
func (n *Net) NewEvaluator() *Evaluator {
	return &Evaluator{
		net:   n,
		at:    make([]int32, max(n.Obs(), n.Hidden())+gatherSlack),
		by:    make([]float32, max(n.Obs(), n.Hidden())+gatherSlack),
		trunk: [2][]float32{make([]float32, n.Hidden()), make([]float32, n.Hidden())},
		head:  make([]float32, n.head.out),
	}
}

// Evaluate writes the network's logits for obs into logits and its values
// (tanh, in [−1, 1], from the view of the seat whose observation it is: its
// own first) into values. obs must have Obs values, logits Actions and
// values Values: other lengths are a caller's bug, and panic.
func (e *Evaluator) Evaluate(obs []uint8, logits, values []float32) {
	n := e.net
	if len(logits) != n.Actions() {
		panic(fmt.Sprintf("nets: %d logits for a net of %d actions", len(logits), n.Actions()))
	}
	if len(values) != n.values {
		panic(fmt.Sprintf("nets: %d values for a net of %d", len(values), n.values))
	}
	e.forward(obs)
	copy(logits, e.head)
	for k, v := range e.head[n.Actions():] {
		values[k] = float32(math.Tanh(float64(v))) // squashed as in pvnet
	}
}

// Argmax returns the legal action (mask[a] == 1) with the largest logit for
// obs, the lower index on ties, or −1 if no action is legal: the baseline
// bot's move. mask must have Actions values.
func (e *Evaluator) Argmax(obs []uint8, mask []uint8) int {
	if len(mask) != e.net.Actions() {
		panic(fmt.Sprintf("nets: a mask of %d actions for a net of %d", len(mask), e.net.Actions()))
	}
	e.forward(obs)
	best := -1
	for a, legal := range mask {
		if legal == 1 && (best < 0 || e.head[a] > e.head[best]) {
			best = a
		}
	}
	return best
}

// forward runs the network on obs into e.head. Each layer adds only the
// columns of its nonzero inputs: an observation is mostly zeros (about 70 %
// of Splendor's: counts, one-hot cards) and ReLU zeroes about half of a
// hidden layer, so this skips most of a dense product's work. The nonzero
// inputs are gathered once, where the previous layer's ReLU would have
// written them. Measured on a Splendor-sized net (BenchmarkEvaluate, one
// core, medians of 5, 2026-11-29): 17 µs with the Go kernels (30 one column
// at a time, 50 for row-by-row dot products with four accumulators), 7.2 µs
// with the 8-wide ones (kernel_simd.go, which has today's figures); 30 and
// 13.5 µs on an observation without zeros.
func (e *Evaluator) forward(obs []uint8) {
	n := e.net
	if len(obs) != n.Obs() {
		panic(fmt.Sprintf("nets: an observation of %d values for a net of %d", len(obs), n.Obs()))
	}
	k := gatherScaled(obs, n.scale, e.at, e.by)
	for i := range n.trunk {
		y := e.trunk[i%2]
		n.trunk[i].apply(e.at[:k], e.by[:k], y)
		k = gatherPositive(y, e.at, e.by)
	}
	n.head.apply(e.at[:k], e.by[:k], e.head)
}

// gatherScaledGo writes to at and by the index j and the value x =
// float32(obs[j])·scale[j] of each input x that is not 0, in index order,
// the first at index from; their count. gatherScaled in Go alone.
func gatherScaledGo(obs []uint8, scale []float32, from int, at []int32, by []float32) int {
	k := 0
	for j, v := range obs {
		if x := float32(v) * scale[j]; x != 0 {
			at[k], by[k] = int32(from+j), x
			k++
		}
	}
	return k
}

// gatherPositiveGo writes to at and by the index and value of each input
// ReLU leaves nonzero, the values of y that are not ≤ 0 (NaN included, as
// max(NaN, 0) is NaN), the first at index from; their count.
// gatherPositive in Go alone.
func gatherPositiveGo(y []float32, from int, at []int32, by []float32) int {
	k := 0
	for j, v := range y {
		if !(v <= 0) {
			at[k], by[k] = int32(from+j), v
			k++
		}
	}
	return k
}

// apply sets y = bias + W·x for the x whose nonzero inputs are at (indices)
// and by (values), in index order. Columns go four at a time, so that each
// y[o] is loaded and stored once per four columns (eight at a time gained
// only 10 %).
func (l *layer) apply(at []int32, by []float32, y []float32) {
	copy(y, l.bias)
	k := 0
	for ; k+4 <= len(at); k += 4 {
		addScaled4(y, by[k], by[k+1], by[k+2], by[k+3], l.column(at[k]), l.column(at[k+1]), l.column(at[k+2]), l.column(at[k+3]))
	}
	for ; k < len(at); k++ {
		addScaled(y, by[k], l.column(at[k]))
	}
}

func (l *layer) column(j int32) []float32 { return l.columns[int(j)*l.out : int(j+1)*l.out] }

// addScaled4Go adds v0·c0 + … + v3·c3 to y, as y[o] += (v0·c0[o] +
// v1·c1[o]) + (v2·c2[o] + v3·c3[o]): addScaled4 in Go alone. (The factors
// come one by one: an array would be read from memory at every element.)
func addScaled4Go(y []float32, v0, v1, v2, v3 float32, c0, c1, c2, c3 []float32) {
	c0, c1, c2, c3 = c0[:len(y)], c1[:len(y)], c2[:len(y)], c3[:len(y)] // bounds checked once, not per element
	for o := range y {
		y[o] += (v0*c0[o] + v1*c1[o]) + (v2*c2[o] + v3*c3[o])
	}
}

// addScaledGo adds v·column to y: addScaled in Go alone.
func addScaledGo(y []float32, v float32, column []float32) {
	column = column[:len(y)]
	for o := range y {
		y[o] += v * column[o]
	}
}
