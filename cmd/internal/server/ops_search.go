package server

import (
	"fmt"

	"github.com/splendor-rl/splendor/encoding/wire"
	"github.com/splendor-rl/splendor/env"
	"github.com/splendor-rl/splendor/env/tableview"
	"github.com/splendor-rl/splendor/internal/quote"
)

// The search ops are thin: whole states, redeals, forks and bots' advice
// all live in env.Vector; here they are only looked up and answered.

var searchOps = map[string]func(*batch, *wire.Request) (any, error){
	wire.OpGetState:    getState,
	wire.OpSetState:    setState,
	wire.OpDeterminize: determinize,
	wire.OpFork:        fork,
	wire.OpBotActions:  botActions,
	wire.OpView:        view,
}

func (c *conn) dispatchSearch(req *wire.Request) (any, *wire.Error) {
	op, known := searchOps[req.Op]
	if !known {
		return nil, wire.Errorf(wire.CodeUnknownOp, "unknown op %s (known: hello, make, reset, step, close, "+
			"get_state, set_state, determinize, fork, bot_actions, view)", quote.String(req.Op))
	}
	b, werr := c.lookup(req.Handle)
	if werr != nil {
		return nil, werr
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

func botActions(b *batch, req *wire.Request) (any, error) {
	var seed uint64
	if req.Seed != nil {
		seed = uint64(*req.Seed)
	}
	var seeds []uint64
	if req.Seeds != nil {
		if req.Seed != nil {
			return nil, fmt.Errorf("%w: give seed or seeds, not both", env.ErrBadShape)
		}
		seeds = make([]uint64, len(req.Seeds))
		for k, s := range req.Seeds {
			seeds[k] = uint64(s)
		}
	}
	actions, err := b.v.BotActions(req.EnvIDs, req.Bot, seed, seeds)
	return &wire.ActionsReply{ID: req.ID, Actions: wire.Int32Tensor(actions, len(actions))}, err
}

// view shows envs' tables; an absent seat is the referee's view.
func view(b *batch, req *wire.Request) (any, error) {
	seat := tableview.Referee
	if req.Seat != nil {
		seat = *req.Seat
	}
	views, boards, err := b.v.Views(req.EnvIDs, seat)
	return &wire.ViewsReply{ID: req.ID, Views: views, Boards: boards}, err
}
