package bots

import (
	"math"

	"github.com/splendor-rl/splendor/internal/rng"
)

// Random numbers for the guided search's noise, drawn from its own stream
// so that a search is a function of its seed and its evaluations.

// unit is uniform in (0, 1).
func unit(r *rng.Rand) float64 { return (float64(r.Uint64()>>11) + 0.5) / (1 << 53) }

// gumbel is a standard Gumbel(0, 1) draw.
func gumbel(r *rng.Rand) float64 { return -math.Log(-math.Log(unit(r))) }

// normal is a standard normal draw (Box–Muller).
func normal(r *rng.Rand) float64 {
	return math.Sqrt(-2*math.Log(unit(r))) * math.Cos(2*math.Pi*unit(r))
}

// gamma is a Gamma(alpha, 1) draw (Marsaglia & Tsang 2000; for alpha < 1,
// a Gamma(alpha + 1) draw times U^(1/alpha)): Dirichlet noise is gamma
// draws normalized.
func gamma(r *rng.Rand, alpha float64) float64 {
	if alpha < 1 {
		return gamma(r, alpha+1) * math.Pow(unit(r), 1/alpha)
	}
	d := alpha - 1.0/3
	c := 1 / math.Sqrt(9*d)
	for {
		x := normal(r)
		v := 1 + c*x
		if v <= 0 {
			continue
		}
		v = v * v * v
		if u := unit(r); math.Log(u) < 0.5*x*x+d-d*v+d*math.Log(v) {
			return d * v
		}
	}
}
