package bots

import "math"

// Gumbel MuZero (Danihelka et al. 2022, "Policy improvement by planning
// with Gumbel"), as mctx's gumbel_muzero_policy. At the root, Gumbel noise
// g (gumbel_scale × Gumbel(0, 1) per legal action) added to the prior
// logits samples max_num_considered_actions actions without replacement,
// and sequential halving spreads the simulations over them: each
// simulation walks to the action with the highest g + logits + σ(q̂)
// among those visited exactly as often as the halving schedule says.
// Elsewhere the walk is deterministic: the child maximizing π′(a) −
// n(a)/(1 + Σn), π′ = softmax(logits + σ(q̂)). q̂ are the completed
// Q-values (qtransform_completed_by_mix_value): a child's mean value if it
// was visited, else the mixed value of the node's own value and its
// visited children's, all rescaled to [0, 1] over the node's children;
// σ(q̂) = (maxvisit_init + max n)·value_scale·q̂. The improved policy is
// softmax(logits + σ(q̂)) at the root, and the action the considered
// action with the most visits and the highest g + logits + σ(q̂).

// rootExpanded prepares the root's selection once its priors are known:
// Dirichlet noise for PUCT, Gumbel noise and the halving schedule for
// Gumbel. The root's children are nodes 1…L, created with it.
func (m *guided[S, G]) rootExpanded() {
	if m.set.Algorithm == PUCT {
		if m.set.DirichletFraction > 0 {
			m.dirichlet()
		}
		return
	}
	kids := len(m.nodes) - 1
	m.noise = m.noise[:0]
	for range kids {
		m.noise = append(m.noise, m.set.GumbelScale*gumbel(&m.r))
	}
	m.considered = halving(m.considered[:0], min(m.set.MaxNumConsideredActions, kids), m.set.Simulations)
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

// completedQ writes σ(q̂) of at's legal children, in child order, into
// m.scratch.
func (m *guided[S, G]) completedQ(at int32) {
	var visits, maxVisits, sumP, weighted float64
	for c := m.nodes[at].child; c != 0; c = m.nodes[c].sibling {
		if n := &m.nodes[c]; m.legalChild(c) {
			visits += float64(n.visits)
			maxVisits = math.Max(maxVisits, float64(n.visits))
			if n.visits > 0 {
				p := math.Max(float64(n.prior), tinyPrior)
				sumP += p
				weighted += p * m.q(c)
			}
		}
	}
	mixed := float64(m.nodes[at].raw)
	if visits > 0 {
		mixed = (mixed + visits*weighted/sumP) / (visits + 1)
	}
	m.scratch = m.scratch[:0]
	lo, hi := math.Inf(1), math.Inf(-1)
	for c := m.nodes[at].child; c != 0; c = m.nodes[c].sibling {
		if m.legalChild(c) {
			q := mixed
			if m.nodes[c].visits > 0 {
				q = m.q(c)
			}
			m.scratch = append(m.scratch, q)
			lo, hi = math.Min(lo, q), math.Max(hi, q)
		}
	}
	scale := (m.set.MaxvisitInit + maxVisits) * m.set.ValueScale
	for i, q := range m.scratch {
		m.scratch[i] = scale * (q - lo) / math.Max(hi-lo, 1e-8)
	}
}

// gumbelRoot is the root's child for the next simulation.
func (m *guided[S, G]) gumbelRoot() int32 {
	visits := uint32(0)
	for c := m.nodes[0].child; c != 0; c = m.nodes[c].sibling {
		visits += m.nodes[c].visits
	}
	want := uint32(m.considered[min(int(visits), len(m.considered)-1)])
	return m.bestConsidered(want)
}

// bestConsidered is the root child with the highest g + logits + σ(q̂)
// among those considered: those with visits visits.
func (m *guided[S, G]) bestConsidered(visits uint32) int32 {
	m.completedQ(0)
	maxLogit := math.Inf(-1)
	for c := m.nodes[0].child; c != 0; c = m.nodes[c].sibling {
		maxLogit = math.Max(maxLogit, logit(m.nodes[c].prior))
	}
	best, bestScore, k := m.nodes[0].child, math.Inf(-1), 0
	for c := m.nodes[0].child; c != 0; c = m.nodes[c].sibling {
		n := &m.nodes[c]
		score := math.Max(-1e9, m.noise[c-1]+logit(n.prior)-maxLogit+m.scratch[k])
		if n.visits == visits && score > bestScore {
			best, bestScore = c, score
		}
		k++
	}
	return best
}

// gumbelInterior is at's child whose visits lag most behind π′.
func (m *guided[S, G]) gumbelInterior(at int32) int32 {
	m.improved(at)
	total := 0.0
	for c := m.nodes[at].child; c != 0; c = m.nodes[c].sibling {
		if m.legalChild(c) {
			total += float64(m.nodes[c].visits)
		}
	}
	best, bestScore, k := int32(0), math.Inf(-1), 0
	for c := m.nodes[at].child; c != 0; c = m.nodes[c].sibling {
		if !m.legalChild(c) {
			continue
		}
		if score := m.scratch[k] - float64(m.nodes[c].visits)/(1+total); score > bestScore {
			best, bestScore = c, score
		}
		k++
	}
	return best
}

// improved writes π′ = softmax(logits + σ(q̂)) of at's legal children, in
// child order, into m.scratch.
func (m *guided[S, G]) improved(at int32) {
	m.completedQ(at)
	k, top := 0, math.Inf(-1)
	for c := m.nodes[at].child; c != 0; c = m.nodes[c].sibling {
		if m.legalChild(c) {
			m.scratch[k] += logit(m.nodes[c].prior)
			top = math.Max(top, m.scratch[k])
			k++
		}
	}
	sum := 0.0
	for i, x := range m.scratch {
		m.scratch[i] = math.Exp(x - top)
		sum += m.scratch[i]
	}
	for i := range m.scratch {
		m.scratch[i] /= sum
	}
}

// gumbelPolicy writes the improved policy at the root and returns the
// action: the best considered action among the most visited.
func (m *guided[S, G]) gumbelPolicy(policy []float32) int {
	most := uint32(0)
	for c := m.nodes[0].child; c != 0; c = m.nodes[c].sibling {
		most = max(most, m.nodes[c].visits)
	}
	action := m.nodes[m.bestConsidered(most)].action
	if policy == nil {
		return int(action)
	}
	m.improved(0)
	k := 0
	for c := m.nodes[0].child; c != 0; c = m.nodes[c].sibling {
		policy[m.nodes[c].action] = float32(m.scratch[k])
		k++
	}
	return int(action)
}
