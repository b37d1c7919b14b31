package server

import (
	"errors"
	"fmt"
	"slices"

	"github.com/splendor-rl/splendor/encoding/wire"
	"github.com/splendor-rl/splendor/env"
	"github.com/splendor-rl/splendor/env/bots"
)

// The guided search ops: search starts one on a batch (replacing any it
// had in that part) and answers with its first leaves; evaluate answers
// them and gets the next, until the reply is done. The tree lives in the
// batch until then or until the batch is closed (with its connection,
// too). A batch holds a search per part, so that a client may evaluate
// one part's leaves while the server advances another's (pipelining).

// MaxSearchParts is how many searches a batch may hold at once: two keep
// both the client's network and the server busy.
const MaxSearchParts = 2

// MaxLeavesPerEnv bounds leaves_per_env: a leaf reply row (observation and
// mask) is about a step row, and two per env stay within the three
// replies' worth of its envs a connection is counted for.
const MaxLeavesPerEnv = 2

func (c *conn) search(b *batch, req *wire.Request) (any, *wire.Error) {
	set, err := guidedSettings(req.Settings)
	if err != nil {
		return nil, wire.Errorf(wire.CodeBadOption, "search settings: %v", err)
	}
	part, werr := searchPart(req)
	if werr != nil {
		return nil, werr
	}
	seed, seeds, err := seedsOf(req)
	if err != nil {
		return nil, envError(err)
	}
	n := b.v.Len()
	if req.EnvIDs != nil {
		n = len(req.EnvIDs)
	}
	if werr := c.overBudget(int64(n)*int64(set.Cost()), fmt.Sprintf("a search of %d envs", n),
		"search fewer envs at a time or with fewer simulations"); werr != nil {
		return nil, werr
	}
	if priors := int64(n*set.LeavesPerEnv*b.v.Spec.NumActions)*4 + 4096; !req.Packed && priors > c.s.cfg.MaxMessageBytes {
		return nil, wire.Errorf(wire.CodeLimit, "an evaluate of %d leaves would be %d bytes, more than max_message_bytes %d: search fewer envs at a time",
			n*set.LeavesPerEnv, priors, c.s.cfg.MaxMessageBytes)
	}
	if searched := n + b.otherPartsEnvs(part); searched > b.v.Len() {
		return nil, wire.Errorf(wire.CodeLimit, "the batch's searches would search %d envs in all, more than its %d: "+
			"its parts must share its envs (a leaf row is counted once per env)", searched, b.v.Len())
	}
	if err := b.v.CheckGuided(req.EnvIDs, seeds); err != nil {
		return nil, envError(err) // the batch's search, if any, waits on
	}
	h, werr := c.s.holdSearch(c, int64(n)*bots.GuidedBytes(set.Simulations, b.v.Spec.NumActions), b.holds[part])
	if werr != nil {
		return nil, werr
	}
	c.endSearch(b, part) // the new search replaces the part's, with its memory
	if set.Playouts {
		c.watch(b, req.Handle) // a close or a disconnect stops it
	}
	g, err := b.v.StartGuided(req.EnvIDs, set, seed, seeds)
	if err != nil {
		h.release()
		return nil, envError(err)
	}
	h.envs, h.packed, b.holds[part] = n, req.Packed, h
	return c.searchReply(b, part, g, req.ID)
}

// otherPartsEnvs counts the envs searched by b's searches in parts other
// than part that still wait for their evaluations: with this part's, at
// most the batch's envs, so that the leaves' rows stay within the replies'
// worth of envs a batch is counted for (MaxLeavesPerEnv).
func (b *batch) otherPartsEnvs(part int) int {
	n := 0
	for p, h := range b.holds {
		if p != part && h != nil && h.isWaiting() {
			n += h.envs
		}
	}
	return n
}

// searchPart is the part a search or evaluate is for.
func searchPart(req *wire.Request) (int, *wire.Error) {
	if req.Part < 0 || req.Part >= MaxSearchParts {
		return 0, wire.Errorf(wire.CodeBadRequest, "part %d: want 0 to %d", req.Part, MaxSearchParts-1)
	}
	return req.Part, nil
}

// endSearch ends b's guided search in part, if any, and gives back its
// memory.
func (c *conn) endSearch(b *batch, part int) {
	if b.holds[part] != nil {
		b.holds[part].release()
		b.holds[part] = nil
	}
	if b.holds == [MaxSearchParts]*hold{} {
		b.priors, b.values, b.maskBits = nil, nil, nil // the buffers live as long as the searches
	}
}

func (c *conn) evaluate(b *batch, req *wire.Request) (any, *wire.Error) {
	part, werr := searchPart(req)
	if werr != nil {
		return nil, werr
	}
	if b.holds[part] == nil {
		return nil, wire.Errorf(wire.CodeBadRequest, "no search is waiting for evaluations on this batch's part %d: start one with search", part)
	}
	h := b.holds[part]
	priors, field := req.Priors, "priors"
	if h.packed {
		priors, field = req.LegalPriors, "legal_priors"
	}
	if priors == nil || req.Values == nil || req.Priors != nil && req.LegalPriors != nil {
		return nil, wire.Errorf(wire.CodeBadRequest, "an evaluate of this search takes %s and values (legal_priors for a packed search, else priors)", field)
	}
	g, werr := h.working()
	if werr != nil {
		c.endSearch(b, part)
		return nil, werr
	}
	l, na := len(g.LeafEnvs), b.v.Spec.NumActions
	// The evaluations decode into the batch's buffers, reused from round
	// trip to round trip of one search (at most max_message_bytes).
	n, shape, evaluate := l*na, []int{l, na}, g.Evaluate
	if h.packed {
		n, shape, evaluate = g.Legal, []int{g.Legal}, g.EvaluateLegal
	}
	values, width := []int{l}, 1 // each leaf's seat to play's, or every seat's: [l, players]
	if len(req.Values.Shape) == 2 {
		values, width = []int{l, b.v.Spec.Players}, b.v.Spec.Players
	}
	b.priors, b.values = slices.Grow(b.priors[:0], n)[:n], slices.Grow(b.values[:0], l*width)[:l*width]
	if werr := priors.Floats(b.priors, shape...); werr != nil {
		werr.Message = field + ": " + werr.Message
		return nil, c.keepWaiting(h, g, werr)
	}
	if werr := req.Values.Floats(b.values, values...); werr != nil {
		werr.Message = "values: " + werr.Message
		return nil, c.keepWaiting(h, g, werr)
	}
	if err := evaluate(b.priors, b.values); err != nil {
		return nil, c.keepWaiting(h, g, envError(err))
	}
	return c.searchReply(b, part, g, req.ID)
}

// keepWaiting is a refused evaluation's error: the search waits for its
// evaluations again, as if the request never came.
func (c *conn) keepWaiting(h *hold, g *env.GuidedBatch, werr *wire.Error) *wire.Error {
	h.wait(g)
	return werr
}

// searchReply is the next leaves, or the results once the search is done
// (and then the search is gone). A packed search whose next evaluate would
// pass max_message_bytes ends, limit_exceeded.
func (c *conn) searchReply(b *batch, part int, g *env.GuidedBatch, id uint64) (*wire.SearchReply, *wire.Error) {
	l, na, obs := len(g.LeafEnvs), b.v.Spec.NumActions, g.ObsSize()
	r := &wire.SearchReply{ID: id, Done: g.Done(), LeafEnvs: wire.Int32Tensor(g.LeafEnvs, l),
		Obs: wire.Uint8Tensor(g.LeafObs, l, obs)}
	if b.v.Spec.ObsDtype == env.Float32 {
		r.Obs = wire.Float32Tensor(g.LeafObsF32, l, obs)
	}
	if b.holds[part].packed {
		b.maskBits = g.PackedMasks(b.maskBits[:0])
		bits := wire.Uint8Tensor(b.maskBits, l, (na+7)/8)
		r.MaskBits = &bits
	} else {
		mask := wire.Uint8Tensor(g.LeafMask, l, na)
		r.Mask = &mask
	}
	if evaluate := 4*int64(g.Legal+l) + 4096; !r.Done && evaluate > c.s.cfg.MaxMessageBytes {
		c.endSearch(b, part)
		return nil, wire.Errorf(wire.CodeLimit, "the next evaluate of this search (%d leaves, %d legal actions) would be %d bytes, "+
			"more than max_message_bytes %d: the search ended; search fewer envs at a time", l, g.Legal, evaluate, c.s.cfg.MaxMessageBytes)
	}
	if !r.Done {
		b.holds[part].wait(g)
		return r, nil
	}
	k := len(g.Action)
	policy, value, action := wire.Float32Tensor(g.Policy, k, na), wire.Float32Tensor(g.Value, k), wire.Int32Tensor(g.Action, k)
	values := wire.Float32Tensor(g.Values, k, b.v.Spec.Players)
	r.Policy, r.Value, r.Values, r.Action = &policy, &value, &values, &action
	c.endSearch(b, part)
	return r, nil
}

// guidedSettings reads a search's settings (PROTOCOL.md §3, search: mctx's
// names) over bots.DefaultGuided, or bots.PlayoutGuided for a search that
// evaluates its own leaves, as env options are read.
func guidedSettings(m map[string]any) (bots.GuidedSettings, error) {
	o, d := env.NewOptionReader(env.Options(m)), bots.DefaultGuided
	if o.Bool("playouts", false) {
		d = bots.PlayoutGuided
	}
	algorithm := o.String("algorithm", "gumbel", "gumbel", "puct")
	set := bots.GuidedSettings{Algorithm: bots.Gumbel,
		Simulations:             o.Int("simulations", d.Simulations, 1, bots.MaxSimulations),
		LeavesPerEnv:            o.Int("leaves_per_env", d.LeavesPerEnv, 1, MaxLeavesPerEnv),
		Playouts:                d.Playouts,
		PlayoutWeight:           o.Float("playout_weight", 0, 0, 1),
		PbCInit:                 o.Float("pb_c_init", d.PbCInit, 0, 1e6),
		PbCBase:                 o.Float("pb_c_base", d.PbCBase, 1e-6, 1e9),
		DirichletAlpha:          o.Float("dirichlet_alpha", d.DirichletAlpha, 1e-6, 1e9),
		DirichletFraction:       o.Float("dirichlet_fraction", d.DirichletFraction, 0, 1),
		MaxNumConsideredActions: o.Int("max_num_considered_actions", d.MaxNumConsideredActions, 1, 1024),
		GumbelScale:             o.Float("gumbel_scale", d.GumbelScale, 0, 1e6),
		MaxvisitInit:            o.Float("maxvisit_init", d.MaxvisitInit, 1e-6, 1e9),
		ValueScale:              o.Float("value_scale", d.ValueScale, 0, 1e6),
		FPUReduction:            o.Float("fpu_reduction", 0, 0, 2),
	}
	_, set.FirstPlay = m["fpu_reduction"] // absent: mctx's rule
	if algorithm == "puct" {
		set.Algorithm = bots.PUCT
	}
	if set.Playouts && set.PlayoutWeight > 0 {
		o.Refuse("playout_weight", errors.New("weighs a playout against an evaluator's value: not with playouts"))
	}
	return set, o.Check()
}
