package server

import (
	"fmt"

	"github.com/splendor-rl/splendor/encoding/wire"
	"github.com/splendor-rl/splendor/env"
	"github.com/splendor-rl/splendor/env/bots"
	"github.com/splendor-rl/splendor/env/tableview"
	"github.com/splendor-rl/splendor/internal/quote"
)

// The search ops (PROTOCOL.md §3), the tools of a client's own search:
// whole states, redeals, forks, bots' advice and seats' views. They are
// thin: all live in env.Vector; here they are only looked up and answered.
// The server's own search, the search op, is in ops_search.go.

var searchOps = map[string]func(*batch, *wire.Request) (any, error){
	wire.OpGetState:    getState,
	wire.OpSetState:    setState,
	wire.OpDeterminize: determinize,
	wire.OpFork:        fork,
	wire.OpBotActions:  botActions,
	wire.OpView:        view,
	wire.OpSearch:      nil, // ops_search.go: they check limits of the connection
	wire.OpEvaluate:    nil,
}

func (c *conn) dispatchSearch(req *wire.Request) (any, *wire.Error) {
	op, known := searchOps[req.Op]
	if !known {
		return nil, wire.Errorf(wire.CodeUnknownOp, "unknown op %s (known: hello, make, reset, step, close, "+
			"get_state, set_state, determinize, fork, bot_actions, view, search, evaluate)", quote.String(req.Op))
	}
	b, werr := c.lookup(req.Handle)
	if werr != nil {
		return nil, werr
	}
	switch req.Op {
	case wire.OpSearch:
		return c.search(b, req)
	case wire.OpEvaluate:
		return c.evaluate(b, req)
	}
	if req.Op == wire.OpBotActions {
		if werr := c.prepareSearch(b, req); werr != nil {
			return nil, werr
		}
	}
	reply, err := op(b, req)
	if err != nil {
		return nil, envError(err)
	}
	return reply, nil
}

func getState(b *batch, req *wire.Request) (any, error) {
	states, err := b.v.States(req.EnvIDs)
	return &wire.StatesReply{ID: req.ID, States: states}, err
}

func setState(b *batch, req *wire.Request) (any, error) {
	if err := b.v.SetStates(req.EnvIDs, req.States); err != nil {
		return nil, err
	}
	return b.replyTo(req.ID), nil
}

func determinize(b *batch, req *wire.Request) (any, error) {
	seeds := make([]uint64, len(req.Seeds))
	for i, s := range req.Seeds {
		seeds[i] = uint64(s)
	}
	if err := b.v.Determinize(req.EnvIDs, seeds); err != nil {
		return nil, err
	}
	return b.replyTo(req.ID), nil
}

func fork(b *batch, req *wire.Request) (any, error) {
	if err := b.v.Fork(req.Src, req.Dst); err != nil {
		return nil, err
	}
	return b.replyTo(req.ID), nil
}

// seedsOf is a request's seed, or its seeds (one per env listed), never
// both: what bot_actions and search draw from.
func seedsOf(req *wire.Request) (seed uint64, seeds []uint64, err error) {
	if req.Seed != nil {
		seed = uint64(*req.Seed)
	}
	if req.Seeds != nil {
		if req.Seed != nil {
			return 0, nil, fmt.Errorf("%w: give seed or seeds, not both", env.ErrBadShape)
		}
		seeds = make([]uint64, len(req.Seeds))
		for k, s := range req.Seeds {
			seeds[k] = uint64(s)
		}
	}
	return seed, seeds, nil
}

func botActions(b *batch, req *wire.Request) (any, error) {
	seed, seeds, err := seedsOf(req)
	if err != nil {
		return nil, err
	}
	if req.Targets {
		return botTargets(b, req, seed, seeds)
	}
	actions, err := b.v.BotActions(req.EnvIDs, req.Bot, seed, seeds)
	return &wire.ActionsReply{ID: req.ID, Actions: wire.Int32Tensor(actions, len(actions))}, err
}

// botTargets is bot_actions with targets: true. The policy rows (4 bytes an
// action) are within the three replies' worth of its envs the connection
// is counted for (a test checks it for every game).
func botTargets(b *batch, req *wire.Request, seed uint64, seeds []uint64) (any, error) {
	actions, t, err := b.v.BotTargets(req.EnvIDs, req.Bot, seed, seeds)
	if err != nil {
		return nil, err
	}
	k := len(actions)
	policy, value := wire.Float32Tensor(t.Policy, k, b.v.Spec.NumActions), wire.Float32Tensor(t.Value, k)
	values := wire.Float32Tensor(t.Values, k, b.v.Spec.Players)
	return &wire.ActionsReply{ID: req.ID, Actions: wire.Int32Tensor(actions, k), Policy: &policy, Value: &value, Values: &values}, nil
}

// viewBytesPerEnv bounds one env's share of a view reply (a test plays
// whole games of every table and checks it): 4 to 5 times its step rows.
const viewBytesPerEnv = 4 << 10

// view shows envs' tables; an absent seat is the referee's view. A reply's
// bytes stay within what the batch's replies are counted for (replySlack
// always allows 16 envs): a client asks for views a part of a large batch
// at a time.
func view(b *batch, req *wire.Request) (any, error) {
	seat := tableview.Referee
	if req.Seat != nil {
		seat = *req.Seat
	}
	n := b.v.Len()
	if req.EnvIDs != nil {
		n = len(req.EnvIDs)
	}
	if most := maxViews(b); n > most {
		return nil, fmt.Errorf("%w: views of %d envs at once would pass this batch's reply memory: ask for at most %d at a time",
			errLimit, n, most)
	}
	views, boards, err := b.v.Views(req.EnvIDs, seat)
	return &wire.ViewsReply{ID: req.ID, Views: views, Boards: boards}, err
}

// maxViews is how many envs of b one view reply may show.
func maxViews(b *batch) int {
	return int((repliesPerEnv*b.replyBytes + replySlack) / viewBytesPerEnv)
}

// prepareSearch refuses a bot_actions whose searches would run more than
// max_search_iterations over the envs asked, and watches the client while
// it searches (the lookout); a bad bot name is left for the op to refuse.
func (c *conn) prepareSearch(b *batch, req *wire.Request) *wire.Error {
	spec, err := bots.Parse(req.Bot)
	if err != nil || !spec.Searches() {
		return nil
	}
	iterations := spec.Cost()
	n := b.v.Len()
	if req.EnvIDs != nil {
		n = len(req.EnvIDs)
	}
	what := fmt.Sprintf("bot_actions with %s over %d envs", req.Bot, n)
	if werr := c.overBudget(int64(n)*int64(iterations), what,
		"ask for fewer envs at a time or fewer iterations"); werr != nil {
		return werr
	}
	c.watch(b, req.Handle)
	return nil
}

// overBudget is limit_exceeded for a request of iterations, said as what
// and what to lower; nil within max_search_iterations (0: no limit).
func (c *conn) overBudget(iterations int64, what, lower string) *wire.Error {
	limit := c.s.cfg.MaxSearchIterations
	if limit <= 0 || iterations <= limit {
		return nil
	}
	return wire.Errorf(wire.CodeLimit, "%s may run %d mcts iterations, more than max_search_iterations %d: %s",
		what, iterations, limit, lower)
}
