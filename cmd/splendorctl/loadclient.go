package main

import (
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/splendor-rl/splendor/cmd/internal/server"
	"github.com/splendor-rl/splendor/encoding/wire"
)

// callLimit bounds one request's round trip: past it the client closes its
// connection and stops, so a stalled server cannot hold the run (the server
// itself drops a connection whose reply it cannot write for 10 s).
const callLimit = 15 * time.Second

// loadClient is one connection stepping one batch of envs.
type loadClient struct {
	cfg     *loadConfig
	index   int
	conn    *server.Client
	watch   *time.Timer // closes conn when a call outlives callLimit
	stalled atomic.Bool
	handle  uint64
	reply   wire.BatchReply
	player  *player

	stepRequests int64
	envSteps     int64
	latency      histogram
	errKind      string // "" until the first error, which stops the client
	err          error
}

func newLoadClient(cfg *loadConfig, index int) *loadClient {
	return &loadClient{cfg: cfg, index: index}
}

// envSeed is the make seed of client c: its env i deals its first episode
// from S+c*M+i, so the run's envs have distinct consecutive seeds.
func (c *loadClient) envSeed() uint64 { return c.cfg.seed + uint64(c.index)*uint64(c.cfg.envs) }

// setup connects, says hello, makes the batch and resets it.
func (c *loadClient) setup() {
	conn, err := server.Dial(c.cfg.url)
	if err != nil {
		c.fail("dial", err)
		return
	}
	c.conn = conn
	c.watch = time.AfterFunc(callLimit, c.stall)
	c.watch.Stop()
	if c.hello() && c.make() {
		c.call(wire.Request{Op: wire.OpReset, Handle: c.handle}, &c.reply)
		c.see(false)
	}
}

// stall gives up on a call that got no reply in time.
func (c *loadClient) stall() {
	c.stalled.Store(true)
	_ = c.conn.Close()
}

func (c *loadClient) hello() bool {
	var hello wire.HelloReply
	if !c.call(wire.Request{Op: wire.OpHello, Token: c.cfg.token}, &hello) {
		return false
	}
	if hello.Protocol != wire.ProtocolVersion {
		c.fail("protocol", fmt.Errorf("server speaks protocol %d, this client %d", hello.Protocol, wire.ProtocolVersion))
		return false
	}
	return true
}

func (c *loadClient) make() bool {
	seed := wire.Seed(c.envSeed())
	var made wire.MakeReply
	req := wire.Request{Op: wire.OpMake, Env: c.cfg.id, NumEnvs: c.cfg.envs, Options: c.cfg.options(), Seed: &seed}
	if !c.call(req, &made) {
		return false
	}
	c.handle = made.Handle
	c.player = newPlayer(c.cfg, made.Spec.NumActions, actionSeed(c.cfg.seed, c.index))
	return true
}

// play steps random legal actions until the deadline or the first error.
// Under disabled autoreset it resets the envs whose episodes ended, as a
// training loop must.
func (c *loadClient) play(deadline time.Time) {
	if c.err != nil || c.player == nil || c.player.replies == 0 {
		return
	}
	actions := &wire.Tensor{}
	for time.Now().Before(deadline) {
		*actions = wire.Int32Tensor(c.player.choose(c.reply.Mask.Data), c.cfg.envs)
		sent := time.Now()
		if !c.call(wire.Request{Op: wire.OpStep, Handle: c.handle, Actions: actions}, &c.reply) {
			return
		}
		c.latency.add(time.Since(sent))
		c.stepRequests++
		c.envSteps += int64(c.cfg.envs)
		c.see(true)
		if ended := c.player.ended(&c.reply); len(ended) > 0 && time.Now().Before(deadline) {
			if !c.call(wire.Request{Op: wire.OpReset, Handle: c.handle, EnvIDs: ended}, &c.reply) {
				return
			}
			c.see(false)
		}
	}
}

// see digests a reply that arrived (a failed call leaves nothing to see).
func (c *loadClient) see(stepped bool) {
	if c.err == nil {
		c.player.see(&c.reply, stepped)
	}
}

// call makes one round trip under the watchdog; false after an error.
func (c *loadClient) call(req wire.Request, reply any) bool {
	if c.err != nil {
		return false
	}
	c.watch.Reset(callLimit)
	err := c.conn.Call(req, reply)
	c.watch.Stop()
	if err != nil {
		c.fail(c.kind(err), err)
		return false
	}
	return true
}

// kind names an error for the report: the wire code of an error reply,
// else how the connection failed.
func (c *loadClient) kind(err error) string {
	var werr *wire.Error
	switch {
	case errors.As(err, &werr):
		return string(werr.Code)
	case c.stalled.Load():
		return "stalled"
	}
	return "connection"
}

func (c *loadClient) fail(kind string, err error) {
	c.errKind, c.err = kind, fmt.Errorf("client %d: %w", c.index, err)
}

func (c *loadClient) close() {
	if c.conn != nil {
		c.watch.Stop()
		_ = c.conn.Close()
	}
}

// trajectory is what the replay needs to play the client's games again.
func (c *loadClient) trajectory() trajectory {
	return trajectory{client: c.index, envSeed: c.envSeed(), actionSeed: actionSeed(c.cfg.seed, c.index),
		replies: c.player.replies, digest: c.player.sum()}
}
