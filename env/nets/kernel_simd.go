//go:build goexperiment.simd && amd64

package nets

import (
	"math/bits"
	"simd/archsimd"
)

// lanes is how many outputs the kernels take at a time: 16 where the CPU has
// AVX-512, 8 where it has AVX2, 0 where it has neither (the Go kernels).
var lanes = widest()

func widest() int {
	switch {
	case archsimd.X86.AVX512():
		return 16
	case archsimd.X86.AVX2():
		return 8
	}
	return 0
}

// The kernels of layer.apply, 16 or 8 outputs at a time, then one at a time
// for the tail. Each lane computes what the Go kernel computes for its
// output, in the same order, every product and sum rounded on its own (no
// fused multiply-add), so every width gives the same bits: a network plays
// the same moves whichever kernel a build and a CPU have (TestKernelsAgree).
//
// Each kernel clears the vectors' upper halves (VZEROUPPER) before its tail:
// the Go code around it computes with SSE instructions, which on some CPUs
// wait on the dirty upper halves of the vector registers (a false
// dependency) at every instruction. Measured on a Xeon with AVX-512
// (BenchmarkEvaluate/splendor-like, medians of 3 in one run, beside a busy
// core): 31 µs an evaluation 8 wide without the clear (the Go kernels: 26),
// 12.3 µs with it, 7.9 µs 16 wide.

// addScaled4 adds v0·c0 + … + v3·c3 to y.
func addScaled4(y []float32, v0, v1, v2, v3 float32, c0, c1, c2, c3 []float32) {
	c0, c1, c2, c3 = c0[:len(y)], c1[:len(y)], c2[:len(y)], c3[:len(y)]
	o := 0
	if lanes == 16 {
		b0, b1 := archsimd.BroadcastFloat32x16(v0), archsimd.BroadcastFloat32x16(v1)
		b2, b3 := archsimd.BroadcastFloat32x16(v2), archsimd.BroadcastFloat32x16(v3)
		for ; o+16 <= len(y); o += 16 {
			p01 := b0.Mul(archsimd.LoadFloat32x16Slice(c0[o:])).Add(b1.Mul(archsimd.LoadFloat32x16Slice(c1[o:])))
			p23 := b2.Mul(archsimd.LoadFloat32x16Slice(c2[o:])).Add(b3.Mul(archsimd.LoadFloat32x16Slice(c3[o:])))
			archsimd.LoadFloat32x16Slice(y[o:]).Add(p01.Add(p23)).StoreSlice(y[o:])
		}
	}
	if lanes >= 8 {
		b0, b1 := archsimd.BroadcastFloat32x8(v0), archsimd.BroadcastFloat32x8(v1)
		b2, b3 := archsimd.BroadcastFloat32x8(v2), archsimd.BroadcastFloat32x8(v3)
		for ; o+8 <= len(y); o += 8 {
			p01 := b0.Mul(archsimd.LoadFloat32x8Slice(c0[o:])).Add(b1.Mul(archsimd.LoadFloat32x8Slice(c1[o:])))
			p23 := b2.Mul(archsimd.LoadFloat32x8Slice(c2[o:])).Add(b3.Mul(archsimd.LoadFloat32x8Slice(c3[o:])))
			archsimd.LoadFloat32x8Slice(y[o:]).Add(p01.Add(p23)).StoreSlice(y[o:])
		}
		archsimd.ClearAVXUpperBits()
	}
	addScaled4Go(y[o:], v0, v1, v2, v3, c0[o:], c1[o:], c2[o:], c3[o:])
}

// addScaled adds v·column to y.
func addScaled(y []float32, v float32, column []float32) {
	column = column[:len(y)]
	o := 0
	if lanes == 16 {
		b := archsimd.BroadcastFloat32x16(v)
		for ; o+16 <= len(y); o += 16 {
			archsimd.LoadFloat32x16Slice(y[o:]).Add(b.Mul(archsimd.LoadFloat32x16Slice(column[o:]))).StoreSlice(y[o:])
		}
	}
	if lanes >= 8 {
		b := archsimd.BroadcastFloat32x8(v)
		for ; o+8 <= len(y); o += 8 {
			archsimd.LoadFloat32x8Slice(y[o:]).Add(b.Mul(archsimd.LoadFloat32x8Slice(column[o:]))).StoreSlice(y[o:])
		}
		archsimd.ClearAVXUpperBits()
	}
	addScaledGo(y[o:], v, column[o:])
}

// gatherSlack is the room the gathers need past their last input: a
// 16-wide gather stores whole vectors, of which only the first inputs count.
const gatherSlack = 16

// gatherScaled writes the nonzero scaled inputs of obs to at and by; their
// count: gatherScaledGo's, 16 inputs at a time where the CPU has AVX-512
// (VCOMPRESSPS packs the nonzero ones; the same product, the same bits;
// NaN is not equal to 0 there, as in Go).
func gatherScaled(obs []uint8, scale []float32, at []int32, by []float32) int {
	k, o := 0, 0
	if lanes == 16 {
		zero, index, sixteen := archsimd.BroadcastFloat32x16(0), archsimd.LoadInt32x16Slice(firstSixteen), archsimd.BroadcastInt32x16(16)
		for ; o+16 <= len(obs); o += 16 {
			x := archsimd.LoadUint8x16Slice(obs[o:]).ExtendToUint32().ConvertToFloat32().Mul(archsimd.LoadFloat32x16Slice(scale[o:]))
			k += gathered(x, index, x.NotEqual(zero), at[k:], by[k:])
			index = index.Add(sixteen)
		}
		archsimd.ClearAVXUpperBits()
	}
	return k + gatherScaledGo(obs[o:], scale[o:], o, at[k:], by[k:])
}

// gatherPositive writes the inputs ReLU leaves nonzero in y to at and by;
// their count: gatherPositiveGo's, 16 at a time where the CPU has AVX-512.
func gatherPositive(y []float32, at []int32, by []float32) int {
	k, o := 0, 0
	if lanes == 16 {
		zero, index, sixteen := archsimd.BroadcastFloat32x16(0), archsimd.LoadInt32x16Slice(firstSixteen), archsimd.BroadcastInt32x16(16)
		for ; o+16 <= len(y); o += 16 {
			v := archsimd.LoadFloat32x16Slice(y[o:])
			k += gathered(v, index, v.Greater(zero).Or(v.IsNaN()), at[k:], by[k:])
			index = index.Add(sixteen)
		}
		archsimd.ClearAVXUpperBits()
	}
	return k + gatherPositiveGo(y[o:], o, at[k:], by[k:])
}

// firstSixteen is the indices of a gather's first vector, made into one only
// where the CPU has AVX-512.
var firstSixteen = []int32{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}

// gathered stores the values of v that keep selects, and their indices, at
// the start of by and at (whole vectors: the slack takes the rest); their
// count.
func gathered(v archsimd.Float32x16, index archsimd.Int32x16, keep archsimd.Mask32x16, at []int32, by []float32) int {
	v.Compress(keep).StoreSlice(by)
	index.Compress(keep).StoreSlice(at)
	return bits.OnesCount16(keep.ToBits())
}
