package server

import (
	"bytes"
	"sync/atomic"
	"time"

	"github.com/gorilla/websocket"
	"github.com/splendor-rl/splendor/encoding/wire"
)

// conn is one client connection. Its reader goroutine (run) reads a frame,
// handles it and queues the encoded reply; its writer goroutine writes the
// replies in order, and pings. Handling in the reader keeps replies in
// request order while the writer overlaps sending with the next request.
type conn struct {
	s     *Server
	ws    *websocket.Conn
	codec *wire.Codec
	req   wire.Request
	in    bytes.Buffer // the frame being read
	text  bool         // the frame was a text message, which the protocol refuses

	batches    map[uint64]*batch
	nextHandle uint64
	envs       int // envs held by this connection
	authed     bool

	out         chan *bytes.Buffer // encoded replies, in order
	free        chan *bytes.Buffer // reply buffers to reuse
	lastRequest atomic.Int64       // unix nanos
	draining    atomic.Bool
}

// queued replies a connection may have in flight before its reader waits for
// the writer: enough for pipelining, bounded for memory.
const queued = 16

func newConn(s *Server, ws *websocket.Conn) *conn {
	c := &conn{s: s, ws: ws, codec: wire.NewCodec(), batches: map[uint64]*batch{},
		out: make(chan *bytes.Buffer, queued), free: make(chan *bytes.Buffer, queued+1)}
	c.lastRequest.Store(time.Now().UnixNano())
	ws.SetReadLimit(s.cfg.MaxMessageBytes)
	return c
}

// run is the reader: it owns the connection's batches and frees them when
// the connection ends, however it ends.
func (c *conn) run() {
	done := make(chan struct{})
	go func() { c.write(); close(done) }()
	c.extendReadDeadline()
	c.ws.SetPongHandler(func(string) error { c.extendReadDeadline(); return nil })
	for {
		if err := c.readFrame(); err != nil {
			c.s.cfg.Logger.Debug("connection read ended", "err", err)
			break
		}
		c.lastRequest.Store(time.Now().UnixNano())
		c.extendReadDeadline()
		c.out <- c.handle(c.in.Bytes())
	}
	close(c.out)
	<-done
	c.ws.Close()
	for h := range c.batches {
		c.closeBatch(h)
	}
	c.s.forget(c)
}

// readFrame reads the next message into c.in; a text message is read too,
// and then refused by dispatch.
func (c *conn) readFrame() error {
	kind, r, err := c.ws.NextReader()
	if err != nil {
		return err
	}
	c.in.Reset()
	if _, err := c.in.ReadFrom(r); err != nil {
		return err
	}
	c.text = kind != websocket.BinaryMessage
	return nil
}

func (c *conn) extendReadDeadline() {
	if !c.draining.Load() && c.s.cfg.PingInterval > 0 {
		_ = c.ws.SetReadDeadline(time.Now().Add(c.s.cfg.pongWait()))
	}
	if c.draining.Load() { // checked after, in case drain ran in between
		_ = c.ws.SetReadDeadline(time.Now().Add(drainQuiet))
	}
}

// drainQuiet is how long a draining connection waits for more requests: the
// ones a client sent before it saw the shutdown are still answered, and a
// quiet connection is closed soon after.
const drainQuiet = 100 * time.Millisecond

// drain makes the reader stop once the client has sent nothing for
// drainQuiet (Shutdown's deadline bounds a client that keeps sending).
func (c *conn) drain() {
	c.draining.Store(true)
	_ = c.ws.SetReadDeadline(time.Now().Add(drainQuiet))
}

// write sends queued replies, pings, and closes idle or draining connections.
func (c *conn) write() {
	tick := c.tickInterval()
	ticker := time.NewTicker(tick)
	defer ticker.Stop()
	lastPing := time.Now()
	for {
		select {
		case frame, ok := <-c.out:
			if !ok {
				c.sendClose()
				return
			}
			_ = c.ws.SetWriteDeadline(time.Now().Add(writeWait))
			err := c.ws.WriteMessage(websocket.BinaryMessage, frame.Bytes())
			c.recycle(frame)
			if err != nil {
				c.ws.Close() // the reader sees the error and ends
				c.discard()
				return
			}
		case <-ticker.C:
			if c.idle() {
				c.s.cfg.Logger.Info("closing idle connection", "remote", c.ws.RemoteAddr().String())
				c.closeWith(websocket.CloseNormalClosure, "idle timeout")
				c.discard()
				return
			}
			if c.s.cfg.PingInterval > 0 && time.Since(lastPing) >= c.s.cfg.PingInterval {
				_ = c.ws.WriteControl(websocket.PingMessage, nil, time.Now().Add(writeWait))
				lastPing = time.Now()
			}
		}
	}
}

// discard drains the reply queue after a failed write so the reader never
// blocks on it.
func (c *conn) discard() {
	for range c.out {
	}
}

func (c *conn) tickInterval() time.Duration {
	tick := time.Hour
	if c.s.cfg.PingInterval > 0 {
		tick = c.s.cfg.PingInterval
	}
	if c.s.cfg.IdleTimeout > 0 {
		tick = min(tick, c.s.cfg.IdleTimeout/4)
	}
	return max(tick, time.Millisecond)
}

func (c *conn) idle() bool {
	return c.s.cfg.IdleTimeout > 0 && time.Since(time.Unix(0, c.lastRequest.Load())) > c.s.cfg.IdleTimeout
}

// sendClose ends a connection whose reader stopped: "going away" when the
// server drains, a normal closure otherwise.
func (c *conn) sendClose() {
	if c.draining.Load() {
		c.closeWith(websocket.CloseGoingAway, "server shutting down")
		return
	}
	c.closeWith(websocket.CloseNormalClosure, "")
}

func (c *conn) closeWith(code int, reason string) {
	msg := websocket.FormatCloseMessage(code, reason)
	_ = c.ws.WriteControl(websocket.CloseMessage, msg, time.Now().Add(writeWait))
	c.ws.Close()
}

// buffer returns a reply buffer, reused when the writer has returned one.
func (c *conn) buffer() *bytes.Buffer {
	select {
	case b := <-c.free:
		return b
	default:
		return new(bytes.Buffer)
	}
}

func (c *conn) recycle(b *bytes.Buffer) {
	select {
	case c.free <- b:
	default:
	}
}
