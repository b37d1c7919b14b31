//go:build !(goexperiment.simd && amd64)

package nets

// The kernels of layer.apply in Go alone (a build with GOEXPERIMENT=simd
// has 8- and 16-wide ones of the same bits: kernel_simd.go).

// addScaled4 adds v0·c0 + … + v3·c3 to y.
func addScaled4(y []float32, v0, v1, v2, v3 float32, c0, c1, c2, c3 []float32) {
	addScaled4Go(y, v0, v1, v2, v3, c0, c1, c2, c3)
}

// addScaled adds v·column to y.
func addScaled(y []float32, v float32, column []float32) { addScaledGo(y, v, column) }

// gatherScaled writes the nonzero scaled inputs of obs to at and by; their count.
func gatherScaled(obs []uint8, scale []float32, at []int32, by []float32) int {
	return gatherScaledGo(obs, scale, 0, at, by)
}

// gatherPositive writes the inputs ReLU leaves nonzero in y to at and by; their count.
func gatherPositive(y []float32, at []int32, by []float32) int { return gatherPositiveGo(y, 0, at, by) }

// gatherSlack is the room the gathers need past their last input: none.
const gatherSlack = 0
