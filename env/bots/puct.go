package bots

import (
	"math"

	"github.com/splendor-rl/splendor/internal/rng"
)

// puct is PUCT selection (AlphaZero; mctx's muzero_action_selection): the
// kid maximizing q̂ + pb_c·P·√N/(1 + n), where pb_c = pb_c_init +
// log((N + pb_c_base + 1)/pb_c_base), N the node's visits, n and P the
// kid's visits and prior (renormalized over the kids), and q̂ its value by
// byParentAndSiblings (with first-play urgency, if set). Ties go to the
// higher prior. At the root the priors may be mixed with Dirichlet noise
// once, when the root is evaluated. The policy is the root's visit
// distribution.
type puct struct {
	set   *GuidedSettings
	noise []float64 // the root's Dirichlet draws, per child
	q     []float64 // per kid of the node being scored
}

func (p *puct) choose(t *gtree, at int32, kids []int32) int32 {
	n := float64(t.nodes[at].visits)
	pbc := p.set.PbCInit + math.Log((n+p.set.PbCBase+1)/p.set.PbCBase)
	fpu := math.Inf(1) // an unvisited kid is the minimum
	if p.set.FirstPlay {
		fpu = p.set.FPUReduction
	}
	priors := 0.0
	for _, c := range kids {
		priors += float64(t.nodes[c].prior)
	}
	priors = max(priors, tinyPrior)
	p.q = byParentAndSiblings(t, at, kids, fpu, priors, p.q)
	best, bestScore, bestPrior := int32(0), math.Inf(-1), float32(0)
	sqrtN := math.Sqrt(n)
	for k, c := range kids {
		child := &t.nodes[c]
		score := p.q[k] + pbc*float64(child.prior)/priors*sqrtN/(1+float64(child.visits))
		if score > bestScore || score == bestScore && child.prior > bestPrior {
			best, bestScore, bestPrior = c, score, child.prior
		}
	}
	return best
}

// rootEvaluated mixes the root's priors with Dirichlet(alpha) noise, if
// asked for: (1 − fraction)·P + fraction·noise (mctx's
// _add_dirichlet_noise).
func (p *puct) rootEvaluated(t *gtree, r *rng.Rand) {
	f := p.set.DirichletFraction
	if f <= 0 {
		return
	}
	sum := 0.0
	p.noise = p.noise[:0]
	for c := t.nodes[0].child; c != 0; c = t.nodes[c].sibling {
		x := gamma(r, p.set.DirichletAlpha)
		p.noise = append(p.noise, x)
		sum += x
	}
	k := 0
	for c := t.nodes[0].child; c != 0; c = t.nodes[c].sibling {
		n := &t.nodes[c]
		n.prior = float32((1-f)*float64(n.prior) + f*p.noise[k]/max(sum, tinyPrior))
		k++
	}
}

// result writes the root's visit distribution and returns its most visited
// action (ties: the higher prior, then the later child).
func (p *puct) result(t *gtree, kids []int32, policy []float32) int {
	total, best := 0.0, int32(0)
	for _, c := range kids {
		n, b := &t.nodes[c], &t.nodes[best]
		total += float64(n.visits)
		if best == 0 || n.visits > b.visits || n.visits == b.visits && n.prior >= b.prior {
			best = c
		}
	}
	for _, c := range kids {
		if policy != nil {
			policy[t.nodes[c].action] = float32(float64(t.nodes[c].visits) / total)
		}
	}
	return int(t.nodes[best].action)
}
