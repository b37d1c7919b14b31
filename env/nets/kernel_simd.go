//go:build goexperiment.simd && amd64

package nets

import "simd/archsimd"

// avx2 is whether this CPU runs the 8-wide kernels.
var avx2 = archsimd.X86.AVX2()

// The kernels of layer.apply eight outputs at a time, where the CPU has
// AVX2. Each lane computes what the Go kernel computes for its output, in the
// same order, every product and sum rounded on its own (no fused
// multiply-add), so both give the same bits: a network plays the same moves
// whichever kernel a build has (TestKernelsAgree).

// addScaled4 adds v0·c0 + … + v3·c3 to y.
func addScaled4(y []float32, v0, v1, v2, v3 float32, c0, c1, c2, c3 []float32) {
	n := len(y) &^ 7
	if !avx2 || n == 0 {
		addScaled4Go(y, v0, v1, v2, v3, c0, c1, c2, c3)
		return
	}
	c0, c1, c2, c3 = c0[:len(y)], c1[:len(y)], c2[:len(y)], c3[:len(y)]
	b0, b1 := archsimd.BroadcastFloat32x8(v0), archsimd.BroadcastFloat32x8(v1)
	b2, b3 := archsimd.BroadcastFloat32x8(v2), archsimd.BroadcastFloat32x8(v3)
	for o := 0; o < n; o += 8 {
		p01 := b0.Mul(archsimd.LoadFloat32x8Slice(c0[o:])).Add(b1.Mul(archsimd.LoadFloat32x8Slice(c1[o:])))
		p23 := b2.Mul(archsimd.LoadFloat32x8Slice(c2[o:])).Add(b3.Mul(archsimd.LoadFloat32x8Slice(c3[o:])))
		archsimd.LoadFloat32x8Slice(y[o:]).Add(p01.Add(p23)).StoreSlice(y[o:])
	}
	addScaled4Go(y[n:], v0, v1, v2, v3, c0[n:], c1[n:], c2[n:], c3[n:])
}

// addScaled adds v·column to y.
func addScaled(y []float32, v float32, column []float32) {
	n := len(y) &^ 7
	if !avx2 || n == 0 {
		addScaledGo(y, v, column)
		return
	}
	column = column[:len(y)]
	b := archsimd.BroadcastFloat32x8(v)
	for o := 0; o < n; o += 8 {
		archsimd.LoadFloat32x8Slice(y[o:]).Add(b.Mul(archsimd.LoadFloat32x8Slice(column[o:]))).StoreSlice(y[o:])
	}
	addScaledGo(y[n:], v, column[n:])
}
