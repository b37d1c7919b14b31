package server

import (
	"crypto/subtle"
	"errors"
	"fmt"
	"slices"

	"github.com/splendor-rl/splendor/encoding/wire"
	"github.com/splendor-rl/splendor/env"
	"github.com/splendor-rl/splendor/internal/quote"
)

// batch is one made Vector with its scratch space and what it commits.
type batch struct {
	v          *env.Vector
	actions    []int32
	memory     int64 // bytes reserved from the server's budget
	replyBytes int64 // bytes of one reset or step reply
	reply      *wire.BatchReply
	holds      [MaxSearchParts]*hold // its guided searches, by part, and what they hold (ops_search.go, holds.go)
	priors     []float32             // an evaluate's, decoded (ops_search.go)
	maskBits   []uint8               // a packed search reply's masks (ops_search.go)
	values     []float32
}

// replyTo is the batch's reset or step reply: built once, since its tensors
// view the Vector's buffers, which never move (rebuilt each time where
// tensors are copies).
func (b *batch) replyTo(id uint64) *wire.BatchReply {
	if b.reply == nil || !wire.TensorsView {
		b.reply = batchReply(b.v)
	}
	b.reply.ID = id
	return b.reply
}

// handle answers one request frame with one encoded reply frame. A failed
// request changes nothing. closeAfter says the connection must end once the
// reply is sent (a failed hello).
func (c *conn) handle(frame []byte) (r reply, closeAfter bool) {
	req := &c.req
	payload, werr := c.safeDispatch(frame, req)
	c.s.metrics.request(req.Op)
	r.buf = c.buffer()
	if werr != nil {
		c.s.metrics.errors[werr.Code].Inc()
		payload = &wire.ErrorReply{ID: req.ID, Error: *werr}
		closeAfter = req.Op == wire.OpHello && werr.Code == wire.CodeUnauthorized
	}
	if rel, ok := payload.(*closeReply); ok {
		payload, r.release = &rel.CloseReply, rel.release
	}
	if br, ok := payload.(*wire.BatchReply); ok {
		r.buf.Grow(br.SizeHint()) // once, instead of doubling (and leaving garbage) as the encoder writes
	}
	if err := c.codec.Encode(r.buf, payload); err != nil {
		c.s.cfg.Logger.Error("encoding a reply failed", "op", req.Op, "err", err)
		_ = c.codec.Encode(r.buf, &wire.ErrorReply{ID: req.ID, Error: *wire.Errorf(wire.CodeInternal, "encoding the reply failed")})
	}
	return r, closeAfter
}

// safeDispatch turns a panic (a server bug) into an internal error for this
// request alone: the batch it touched is dropped, since its state is no
// longer trusted, and every other batch and connection carries on.
func (c *conn) safeDispatch(frame []byte, req *wire.Request) (reply any, werr *wire.Error) {
	defer func() {
		if p := recover(); p != nil {
			c.s.cfg.Logger.Error("request panicked", "op", req.Op, "panic", fmt.Sprint(p))
			if _, ok := c.batches[req.Handle]; ok && req.Op != wire.OpMake {
				c.closeBatch(req.Handle)()
			}
			reply, werr = nil, wire.Errorf(wire.CodeInternal, "server error handling %s; batch %d was closed", req.Op, req.Handle)
		}
	}()
	return c.dispatch(frame, req)
}

func (c *conn) dispatch(frame []byte, req *wire.Request) (any, *wire.Error) {
	if c.text {
		*req = wire.Request{}
		return nil, wire.Errorf(wire.CodeBadRequest, "frames must be binary WebSocket messages holding msgpack")
	}
	if err := c.codec.DecodeRequest(frame, req); err != nil {
		return nil, err
	}
	if c.s.cfg.Token != "" && !c.authed && req.Op != wire.OpHello {
		return nil, wire.Errorf(wire.CodeUnauthorized, "send hello with the server's token first")
	}
	switch req.Op {
	case wire.OpHello:
		return c.hello(req)
	case wire.OpMake:
		return c.make(req)
	case wire.OpReset:
		return c.reset(req)
	case wire.OpStep:
		return c.step(req)
	case wire.OpClose:
		return c.close(req)
	}
	return c.dispatchSearch(req)
}

// hello checks the token in constant time; a wrong one ends the connection
// (handle), so guessing costs a connection per guess.
func (c *conn) hello(req *wire.Request) (any, *wire.Error) {
	if c.s.cfg.Token != "" && !c.authed {
		if subtle.ConstantTimeCompare([]byte(req.Token), []byte(c.s.cfg.Token)) != 1 {
			return nil, wire.Errorf(wire.CodeUnauthorized, "wrong or missing token")
		}
		c.authed = true
		settle(c.ws)
		c.ws.SetReadLimit(c.s.cfg.MaxMessageBytes)
		c.extendReadDeadline()
	}
	return &wire.HelloReply{ID: req.ID, Protocol: wire.ProtocolVersion, Server: c.s.cfg.Version,
		Envs: env.IDs(), Limits: c.s.Limits(), EnvOptions: c.s.envOptions, Baselines: baselineSpecs()}, nil
}

// baselineSpecs lists the baseline networks installed, for hello: a client
// offers "baseline" bots only where one plays.
func baselineSpecs() []wire.BaselineSpec {
	out := []wire.BaselineSpec{}
	for _, b := range env.Installed() {
		out = append(out, wire.BaselineSpec{Env: b.Env, Players: b.Players, Edition: b.Edition})
	}
	return out
}

func (c *conn) make(req *wire.Request) (any, *wire.Error) {
	n := req.NumEnvs
	if !slices.Contains(env.IDs(), req.Env) {
		return nil, wire.Errorf(wire.CodeUnknownEnv, "unknown env id %s (known: %v)", quote.String(req.Env), env.IDs())
	}
	if n < 1 {
		return nil, wire.Errorf(wire.CodeBadOption, "num_envs must be at least 1, got %d", n)
	}
	held := int(c.envs.Load())
	if n > c.s.cfg.MaxEnvsPerConnection-held { // written so that a huge n cannot overflow
		return nil, wire.Errorf(wire.CodeLimit, "%d envs would exceed this connection's limit of %d (%d held)",
			n, c.s.cfg.MaxEnvsPerConnection, held)
	}
	if !c.s.envs.take(int64(n)) {
		return nil, wire.Errorf(wire.CodeLimit, "%d envs would exceed the server's limit of %d", n, c.s.cfg.MaxEnvsTotal)
	}
	b, werr := c.makeBatch(req, n)
	if werr != nil {
		c.s.envs.give(int64(n))
		return nil, werr
	}
	c.nextHandle++
	c.batches[c.nextHandle] = b
	c.envs.Add(int64(n))
	c.replyBytes.Add(b.replyBytes)
	return &wire.MakeReply{ID: req.ID, Handle: c.nextHandle, Spec: wireSpec(&b.v.Spec, n)}, nil
}

// makeBatch reserves the batch's memory, then builds its Vector: reserved
// first, from a one-env probe of the same options, so that makes running at
// once on several connections cannot pass max_memory before they are
// counted.
func (c *conn) makeBatch(req *wire.Request, n int) (*batch, *wire.Error) {
	var seed uint64
	if req.Seed != nil {
		seed = uint64(*req.Seed)
	}
	probe, err := env.Make(req.Env, 1, env.Options(req.Options), seed, c.s.pool)
	if err != nil {
		return nil, envError(err)
	}
	if werr := c.overBudget(int64(n)*int64(probe.SearchIterations()), fmt.Sprintf("a step of %d envs whose bots search", n),
		"make fewer envs or give the bots fewer iterations"); werr != nil {
		return nil, werr
	}
	memory := int64(n) * envBytes(probe)
	if !c.s.memory.take(memory) {
		return nil, wire.Errorf(wire.CodeLimit, "%d envs (%d MiB) would exceed the server's max_memory of %d MiB (%d MiB committed)",
			n, memory>>20, c.s.memory.limit>>20, c.s.memory.used.Load()>>20)
	}
	v, err := env.Make(req.Env, n, env.Options(req.Options), seed, c.s.pool)
	if err != nil { // the probe had the same options: cannot happen
		c.s.memory.give(memory)
		return nil, envError(err)
	}
	return &batch{v: v, actions: make([]int32, n), memory: memory, replyBytes: int64(n) * replyBytesPerEnv(&v.Spec)}, nil
}

func (c *conn) lookup(handle uint64) (*batch, *wire.Error) {
	b, ok := c.batches[handle]
	if !ok {
		return nil, wire.Errorf(wire.CodeUnknownHandle, "no batch with handle %d on this connection", handle)
	}
	return b, nil
}

func (c *conn) reset(req *wire.Request) (any, *wire.Error) {
	b, werr := c.lookup(req.Handle)
	if werr != nil {
		return nil, werr
	}
	var seeds []uint64
	if req.Seeds != nil {
		seeds = make([]uint64, len(req.Seeds))
		for i, s := range req.Seeds {
			seeds[i] = uint64(s)
		}
	}
	if werr := b.checkSeat(req.Seat); werr != nil {
		return nil, werr
	}
	if b.v.SearchIterations() > 0 {
		c.watch(b, req.Handle)
	}
	if err := b.v.Reset(req.EnvIDs, seeds); err != nil {
		return nil, envError(err)
	}
	return b.replyFor(req.ID, req.Seat), nil
}

func (c *conn) step(req *wire.Request) (any, *wire.Error) {
	b, werr := c.lookup(req.Handle)
	if werr != nil {
		return nil, werr
	}
	if req.Actions == nil {
		return nil, wire.Errorf(wire.CodeBadRequest, "step needs actions")
	}
	if werr := req.Actions.Ints(b.actions); werr != nil {
		werr.Message = "actions: " + werr.Message
		return nil, werr
	}
	if werr := b.checkSeat(req.Seat); werr != nil {
		return nil, werr
	}
	if b.v.SearchIterations() > 0 {
		c.watch(b, req.Handle)
	}
	if err := b.v.Step(b.actions); err != nil {
		return nil, envError(err)
	}
	c.s.metrics.steps.Add(float64(len(b.actions)))
	return b.replyFor(req.ID, req.Seat), nil
}

// closeReply is a close's reply with what to release once the writer takes
// it: the batch's envs and memory stay counted until every earlier reply,
// which may be one of its replies, is written.
type closeReply struct {
	wire.CloseReply
	release func()
}

func (c *conn) close(req *wire.Request) (any, *wire.Error) {
	if _, werr := c.lookup(req.Handle); werr != nil {
		return nil, werr
	}
	return &closeReply{wire.CloseReply{ID: req.ID, Closed: true}, c.closeBatch(req.Handle)}, nil
}

// closeBatch forgets a batch; the returned func gives back what it held.
func (c *conn) closeBatch(handle uint64) func() {
	b := c.batches[handle]
	delete(c.batches, handle)
	for part := range b.holds {
		c.endSearch(b, part)
	}
	return func() {
		n := int64(b.v.Len())
		c.envs.Add(-n)
		c.replyBytes.Add(-b.replyBytes)
		c.s.envs.give(n)
		c.s.memory.give(b.memory)
	}
}

// envError maps the env layer's errors to wire codes, once, at the edge.
// errLimit is a request over a limit of the server's own (limit_exceeded).
var errLimit = errors.New("limit exceeded")

func envError(err error) *wire.Error {
	var ae *env.ActionError
	switch {
	case errors.Is(err, env.ErrStopped): // its close was read while it ran
		return wire.Errorf(wire.CodeUnknownHandle, "%v: this request's searches were cut short", err)
	case errors.As(err, &ae):
		return &wire.Error{Code: wire.CodeIllegalAction, Message: err.Error(), Envs: ae.Envs}
	}
	for _, c := range errorCodes {
		if errors.Is(err, c.err) {
			return wire.Errorf(c.code, "%v", err)
		}
	}
	return wire.Errorf(wire.CodeInternal, "%v", err)
}

// errorCodes are the wire codes of the errors whose message says it all.
var errorCodes = []struct {
	err  error
	code wire.Code
}{
	{errLimit, wire.CodeLimit},
	{env.ErrUnknownEnv, wire.CodeUnknownEnv},
	{env.ErrBadOption, wire.CodeBadOption},
	{env.ErrBadShape, wire.CodeBadShape},
	{env.ErrIllegalAction, wire.CodeIllegalAction},
	{env.ErrBadState, wire.CodeBadState},
	{env.ErrBadEvaluation, wire.CodeBadEvaluation},
}

func wireSpec(s *env.Spec, n int) wire.Spec {
	return wire.Spec{ID: s.ID, Version: s.Version, NumEnvs: n, ObsShape: s.ObsShape, ObsDtype: string(s.ObsDtype),
		Layout: wireLayout(s.Layout), NumActions: s.NumActions, ActionLabels: s.ActionLabels, Players: s.Players,
		Mode: string(s.Mode), Autoreset: string(s.Autoreset), IllegalAction: string(s.IllegalAction),
		RewardRange: s.RewardRange, Options: s.Options}
}

func wireLayout(blocks []env.Block) []wire.Block {
	out := make([]wire.Block, len(blocks))
	for i, b := range blocks {
		out[i] = wire.Block{Name: b.Name, Offset: b.Offset, Shape: b.Shape, Strides: b.Strides, Fields: b.Fields}
	}
	return out
}

// envOptions describes every registered env's options for hello.
func envOptions() map[string][]wire.OptionSpec {
	all := map[string][]wire.OptionSpec{}
	for _, id := range env.IDs() {
		described, _ := env.Describe(id) // registered ids are found
		for _, o := range described {
			all[id] = append(all[id], wireOption(o))
		}
	}
	return all
}

func wireOption(o env.OptionSpec) wire.OptionSpec {
	w := wire.OptionSpec{Name: o.Name, Type: o.Type, Default: o.Default, Choices: o.Choices, Length: o.Length}
	if o.Type == "int" {
		w.Min, w.Max = &o.Min, &o.Max
	}
	return w
}

// batchReply views the Vector's buffers as tensors; they are copied into the
// frame by the encoder before the next request can touch them.
func batchReply(v *env.Vector) *wire.BatchReply {
	n := v.Len()
	spec := &v.Spec
	obsShape := append([]int{n}, spec.ObsShape...)
	r := &wire.BatchReply{
		Obs:        obsTensor(v.Obs, v.ObsF32, obsShape),
		Mask:       wire.Uint8Tensor(v.Mask, n, spec.NumActions),
		Rewards:    wire.Float32Tensor(v.Rewards, n, spec.Players),
		Terminated: wire.BoolTensor(v.Terminated, n),
		Truncated:  wire.BoolTensor(v.Truncated, n),
		ToPlay:     wire.Int32Tensor(v.ToPlay, n),
	}
	if spec.Autoreset == env.SameStep {
		ended := wire.BoolTensor(v.Ended, n)
		final := obsTensor(v.FinalObs, v.FinalObsF32, obsShape)
		r.Ended, r.FinalObs = &ended, &final
	}
	return r
}

func obsTensor(u8 []uint8, f32 []float32, shape []int) wire.Tensor {
	if f32 != nil {
		return wire.Float32Tensor(f32, shape...)
	}
	return wire.Uint8Tensor(u8, shape...)
}
