//go:build goexperiment.simd && amd64

package nets

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestKernelsAgree: the kernels of every width this CPU has (8, and 16
// where it has AVX-512) give the Go kernels' bits, on every length (whole
// vectors, and tails of each narrower width), on values of every magnitude
// and sign.
func TestKernelsAgree(t *testing.T) {
	if widest() == 0 {
		t.Skip("this CPU has no AVX2: the Go kernels run, and nothing is vectorized to compare")
	}
	defer func() { lanes = widest() }()
	for lanes = 8; lanes <= widest(); lanes *= 2 {
		kernelsAgree(t)
	}
}

func kernelsAgree(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 1))
	draw := func(n int) []float32 {
		s := make([]float32, n)
		for i := range s {
			s[i] = float32(r.NormFloat64() * math.Pow(10, float64(r.IntN(9)-4)))
		}
		return s
	}
	for _, n := range []int{1, 7, 8, 9, 16, 23, 24, 25, 78, 79, 256, 257} {
		for range 50 {
			y, v, c := draw(n), draw(4), [4][]float32{draw(n), draw(n), draw(n), draw(n)}
			want, got := append([]float32(nil), y...), append([]float32(nil), y...)
			addScaled4Go(want, v[0], v[1], v[2], v[3], c[0], c[1], c[2], c[3])
			addScaled4(got, v[0], v[1], v[2], v[3], c[0], c[1], c[2], c[3])
			requireSameBits(t, want, got, "addScaled4 %d wide, length %d", lanes, n)
			addScaledGo(want, v[0], c[0])
			addScaled(got, v[0], c[0])
			requireSameBits(t, want, got, "addScaled %d wide, length %d", lanes, n)
		}
	}
}

func requireSameBits(t *testing.T, want, got []float32, msg string, args ...any) {
	t.Helper()
	for i := range want {
		require.Equal(t, math.Float32bits(want[i]), math.Float32bits(got[i]), append([]any{msg + ", index %d"}, append(args, i)...)...)
	}
}

// TestGathersAgree: the 16-wide gathers give the Go gathers' indices and
// values, on every length (whole vectors and a tail), on values of every
// sign, zeros of both signs and NaN among them.
func TestGathersAgree(t *testing.T) {
	if widest() < 16 {
		t.Skip("this CPU has no AVX-512: the Go gathers run, and nothing is vectorized to compare")
	}
	r := rand.New(rand.NewPCG(9, 1))
	special := []float32{0, float32(math.Copysign(0, -1)), float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1))}
	for _, n := range []int{1, 15, 16, 17, 33, 256, 442} {
		for range 50 {
			y, scale, obs := make([]float32, n), make([]float32, n), make([]uint8, n)
			for i := range y {
				y[i], scale[i] = float32(r.NormFloat64()), special[r.IntN(len(special))]
				if r.IntN(2) == 0 {
					y[i], scale[i] = special[r.IntN(len(special))], float32(r.NormFloat64())
				}
				obs[i] = uint8(r.IntN(3)) * uint8(r.IntN(256))
			}
			wantAt, wantBy := make([]int32, n+gatherSlack), make([]float32, n+gatherSlack)
			gotAt, gotBy := make([]int32, n+gatherSlack), make([]float32, n+gatherSlack)
			want, got := gatherPositiveGo(y, 0, wantAt, wantBy), gatherPositive(y, gotAt, gotBy)
			require.Equal(t, want, got, "gatherPositive, length %d", n)
			require.Equal(t, wantAt[:want], gotAt[:got], "gatherPositive, length %d", n)
			requireSameBits(t, wantBy[:want], gotBy[:got], "gatherPositive, length %d", n)
			want, got = gatherScaledGo(obs, scale, 0, wantAt, wantBy), gatherScaled(obs, scale, gotAt, gotBy)
			require.Equal(t, want, got, "gatherScaled, length %d", n)
			require.Equal(t, wantAt[:want], gotAt[:got], "gatherScaled, length %d", n)
			requireSameBits(t, wantBy[:want], gotBy[:got], "gatherScaled, length %d", n)
		}
	}
}
