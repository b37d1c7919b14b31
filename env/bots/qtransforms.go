package bots

import "math"

// The value transforms of selection, as mctx's qtransforms.py: pure
// functions of a node and the children legal in this deal (kids, in child
// order), writing one value per kid into out and returning it.

// byParentAndSiblings is mctx's qtransform_by_parent_and_siblings: each
// visited kid's mean value rescaled to [0, 1] by the min and max of at's own
// value and its visited kids' values; an unvisited kid counts as at's value
// less fpu·√(the visited kids' share of priors, the kids' prior total),
// floored at the minimum, 0 (first-play urgency; fpu = +Inf: the minimum,
// mctx's rule).
func byParentAndSiblings(t *gtree, at int32, kids []int32, fpu, priors float64, out []float64) []float64 {
	parent := t.nodeValue(at)
	lo, hi := parent, parent
	visited := 0.0
	out = out[:0]
	for _, c := range kids {
		q := math.Inf(-1) // unvisited, set below
		if t.nodes[c].visits > 0 {
			q = t.q(c)
			lo, hi = min(lo, q), max(hi, q)
			visited += float64(t.nodes[c].prior)
		}
		out = append(out, q)
	}
	width, unvisited := max(hi-lo, 1e-8), 0.0
	if !math.IsInf(fpu, 1) {
		urgency := parent - fpu*math.Sqrt(visited/priors)
		unvisited = max(0, (urgency-lo)/width)
	}
	for k, q := range out {
		if math.IsInf(q, -1) {
			out[k] = unvisited
		} else {
			out[k] = (q - lo) / width
		}
	}
	return out
}

// completedByMixValue is mctx's qtransform_completed_by_mix_value, σ(q̂):
// a visited kid's mean value, an unvisited one's the mixed value of at's
// own value and its visited kids' (weighted by their priors), all rescaled
// to [0, 1] over the kids and scaled by (maxvisitInit + max n)·valueScale.
func completedByMixValue(t *gtree, at int32, kids []int32, maxvisitInit, valueScale float64, out []float64) []float64 {
	var visits, maxVisits, sumP, weighted float64
	out = out[:0]
	for _, c := range kids {
		n := &t.nodes[c]
		visits += float64(n.visits)
		maxVisits = max(maxVisits, float64(n.visits))
		q := math.NaN() // unvisited: the mixed value, below
		if n.visits > 0 {
			p := max(float64(n.prior), tinyPrior)
			q = t.q(c)
			sumP += p
			weighted += p * q
		}
		out = append(out, q)
	}
	mixed := float64(t.nodes[at].raw)
	if visits > 0 {
		mixed = (mixed + visits*weighted/sumP) / (visits + 1)
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for i, q := range out {
		if math.IsNaN(q) {
			q, out[i] = mixed, mixed
		}
		lo, hi = min(lo, q), max(hi, q)
	}
	scale := (maxvisitInit + maxVisits) * valueScale
	for i, q := range out {
		out[i] = scale * (q - lo) / max(hi-lo, 1e-8)
	}
	return out
}

// logit is a prior as a logit, finite for a zero prior.
func logit(p float32) float64 { return math.Log(max(float64(p), tinyPrior)) }

const tinyPrior = 1e-30
