package bots

import "math"

// PUCT selection (AlphaZero; mctx's muzero_action_selection): the child
// maximizing q̂ + pb_c·P·√N/(1 + n), where pb_c = pb_c_init +
// log((N + pb_c_base + 1)/pb_c_base), N the node's visits, n and P the
// child's visits and prior (renormalized over the actions legal in this
// deal), and q̂ its mean value normalized by the min and max of the node's
// own value and its visited children's (mctx's
// qtransform_by_parent_and_siblings; an unvisited child counts as the
// minimum, 0). Ties go to the higher prior. At the root the priors may be
// mixed with Dirichlet noise once, when the root is evaluated.
func (m *guided[S, G]) puct(at int32) int32 {
	n := float64(m.nodes[at].visits)
	pbc := m.set.PbCInit + math.Log((n+m.set.PbCBase+1)/m.set.PbCBase)
	lo, hi, priors := m.valueRange(at)
	best, bestScore, bestPrior := int32(0), math.Inf(-1), float32(0)
	for c := m.nodes[at].child; c != 0; c = m.nodes[c].sibling {
		if !m.legalChild(c) {
			continue
		}
		child := &m.nodes[c]
		q := 0.0
		if child.visits > 0 {
			q = (m.q(c) - lo) / math.Max(hi-lo, 1e-8)
		}
		score := q + pbc*float64(child.prior)/priors*math.Sqrt(n)/(1+float64(child.visits))
		if score > bestScore || score == bestScore && child.prior > bestPrior {
			best, bestScore, bestPrior = c, score, child.prior
		}
	}
	return best
}

// valueRange is the min and max of at's own value and its visited legal
// children's mean values, and the sum of its legal children's priors.
func (m *guided[S, G]) valueRange(at int32) (lo, hi, priors float64) {
	lo = m.nodeValue(at)
	hi = lo
	for c := m.nodes[at].child; c != 0; c = m.nodes[c].sibling {
		if !m.legalChild(c) {
			continue
		}
		priors += float64(m.nodes[c].prior)
		if m.nodes[c].visits > 0 {
			lo, hi = math.Min(lo, m.q(c)), math.Max(hi, m.q(c))
		}
	}
	return lo, hi, math.Max(priors, tinyPrior)
}

// dirichlet mixes the root's priors with Dirichlet(alpha) noise:
// (1 − fraction)·P + fraction·noise (mctx's _add_dirichlet_noise).
func (m *guided[S, G]) dirichlet() {
	sum := 0.0
	m.noise = m.noise[:0]
	for c := m.nodes[0].child; c != 0; c = m.nodes[c].sibling {
		x := gamma(&m.r, m.set.DirichletAlpha)
		m.noise = append(m.noise, x)
		sum += x
	}
	f := m.set.DirichletFraction
	k := 0
	for c := m.nodes[0].child; c != 0; c = m.nodes[c].sibling {
		n := &m.nodes[c]
		n.prior = float32((1-f)*float64(n.prior) + f*m.noise[k]/math.Max(sum, tinyPrior))
		k++
	}
}
