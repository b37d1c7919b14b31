//go:build goexperiment.simd && amd64

package nets

import "simd/archsimd"

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
