package bots

import (
	"math"

	"github.com/splendor-rl/splendor/internal/rng"
)

// gumbelMuZero is Gumbel MuZero's selection (Danihelka et al. 2022, "Policy
// improvement by planning with Gumbel"), as mctx's gumbel_muzero_policy. At
// the root, Gumbel noise g (gumbel_scale × Gumbel(0, 1) per legal action)
// added to the prior logits samples max_num_considered_actions actions
// without replacement, and sequential halving spreads the simulations over
// them: each simulation walks to the action with the highest g + logits +
// σ(q̂) among those visited exactly as often as the halving schedule says.
// Elsewhere the walk is deterministic: the kid maximizing π′(a) −
// n(a)/(1 + Σn), π′ = softmax(logits + σ(q̂)), σ(q̂) by
// completedByMixValue. The improved policy is π′ at the root, and the
// action the considered action with the most visits and the highest g +
// logits + σ(q̂).
type gumbelMuZero struct {
	set        *GuidedSettings
	gLogits    []float64 // the root's g + logits − max logit per child, by node index − 1 (the root's children are nodes 1…L): fixed once the root is evaluated
	considered []int32   // sequential halving's visit count to consider, per simulation
	scores     []float64 // per kid of the node being scored
}

// rootEvaluated draws the root's noise and its halving schedule, and adds
// the noise to the root's logits once for every simulation to come.
func (g *gumbelMuZero) rootEvaluated(t *gtree, r *rng.Rand) {
	kids := len(t.nodes) - 1
	g.gLogits = g.gLogits[:0]
	maxLogit := math.Inf(-1)
	for c := range int32(kids) {
		logit := logit(t.nodes[c+1].prior)
		g.gLogits = append(g.gLogits, g.set.GumbelScale*gumbel(r)+logit)
		maxLogit = max(maxLogit, logit)
	}
	for c := range g.gLogits {
		g.gLogits[c] -= maxLogit
	}
	g.considered = halving(g.considered[:0], min(g.set.MaxNumConsideredActions, kids), g.set.Simulations)
}

// halving is sequential halving's schedule (mctx's
// get_sequence_of_considered_visits), appended to seq: for each
// simulation, the visit count of the root actions it may choose among.
func halving(seq []int32, considered, simulations int) []int32 {
	if considered <= 1 {
		for i := range simulations {
			seq = append(seq, int32(i))
		}
		return seq
	}
	log2max := int(math.Ceil(math.Log2(float64(considered))))
	visits := int32(0) // every considered action has as many visits at each phase
	for n := considered; len(seq) < simulations; n = max(2, n/2) {
		extra := max(1, simulations/(log2max*n))
		for range extra {
			for range n {
				seq = append(seq, visits)
			}
			visits++
		}
	}
	return seq[:simulations]
}

func (g *gumbelMuZero) choose(t *gtree, at int32, kids []int32) int32 {
	if at == 0 {
		return g.chooseAtRoot(t, kids)
	}
	g.scores = g.improved(t, at, kids)
	total := 0.0
	for _, c := range kids {
		total += float64(t.nodes[c].visits)
	}
	best, bestScore := int32(0), math.Inf(-1)
	for k, c := range kids {
		if score := g.scores[k] - float64(t.nodes[c].visits)/(1+total); score > bestScore {
			best, bestScore = c, score
		}
	}
	return best
}

// chooseAtRoot is the considered root action the halving schedule has next.
func (g *gumbelMuZero) chooseAtRoot(t *gtree, kids []int32) int32 {
	visits := uint32(0)
	for _, c := range kids {
		visits += t.nodes[c].visits
	}
	want := uint32(g.considered[min(int(visits), len(g.considered)-1)])
	return g.bestConsidered(t, kids, want)
}

// bestConsidered is the root's kid with the highest g + logits + σ(q̂)
// among those considered: those with visits visits.
func (g *gumbelMuZero) bestConsidered(t *gtree, kids []int32, visits uint32) int32 {
	g.scores = completedByMixValue(t, 0, kids, g.set.MaxvisitInit, g.set.ValueScale, g.scores)
	best, bestScore := kids[0], math.Inf(-1)
	for k, c := range kids {
		score := max(-1e9, g.gLogits[c-1]+g.scores[k])
		if t.nodes[c].visits == visits && score > bestScore {
			best, bestScore = c, score
		}
	}
	return best
}

// improved is π′ = softmax(logits + σ(q̂)) of at's kids, in g.scores.
func (g *gumbelMuZero) improved(t *gtree, at int32, kids []int32) []float64 {
	pi := completedByMixValue(t, at, kids, g.set.MaxvisitInit, g.set.ValueScale, g.scores)
	top := math.Inf(-1)
	for k, c := range kids {
		pi[k] += logit(t.nodes[c].prior)
		top = max(top, pi[k])
	}
	sum := 0.0
	for i, x := range pi {
		pi[i] = math.Exp(x - top)
		sum += pi[i]
	}
	for i := range pi {
		pi[i] /= sum
	}
	return pi
}

// result writes the improved policy at the root and returns the action:
// the best considered action among the most visited.
func (g *gumbelMuZero) result(t *gtree, kids []int32, policy []float32) int {
	most := uint32(0)
	for _, c := range kids {
		most = max(most, t.nodes[c].visits)
	}
	action := t.nodes[g.bestConsidered(t, kids, most)].action
	if policy == nil {
		return int(action)
	}
	g.scores = g.improved(t, 0, kids)
	for k, c := range kids {
		policy[t.nodes[c].action] = float32(g.scores[k])
	}
	return int(action)
}
