package server

import (
	"bytes"
	"errors"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gorilla/websocket"
	"github.com/splendor-rl/splendor/encoding/wire"
)

// conn is one client connection. Its reader goroutine (run) reads a frame,
// handles it and queues the encoded reply; its writer goroutine (write)
// writes the replies in order, and pings. Handling in the reader keeps
// replies in request order while the writer overlaps sending a large reply
// with the next request; a small reply with nothing ahead of it the reader
// writes itself (deliver).
type conn struct {
	s      *Server
	ws     *websocket.Conn
	remote string
	codec  *wire.Codec
	req    wire.Request
	in     bytes.Buffer // the frame being read
	inCap  int          // c.in's capacity, as the frame_buffer_bytes gauge counts it
	text   bool         // the frame was a text message, which the protocol refuses

	batches    map[uint64]*batch
	nextHandle uint64
	authed     bool
	// envs and replyBytes count the envs this connection holds and the bytes
	// of one reply to all of them; a closed batch stays counted until the
	// writer takes its close reply, when every earlier reply is written.
	envs       atomic.Int64
	replyBytes atomic.Int64

	out    chan reply         // encoded replies, in order
	free   chan *bytes.Buffer // written reply buffers, for reuse
	taken  chan struct{}      // the writer wrote a reply
	queued atomic.Int64       // bytes of replies queued or being written
	held   atomic.Int64       // those and the bytes of buffers in free
	// pooling orders pooling a written buffer (recycle) with letting go of
	// a closed batch's (took).
	pooling sync.Mutex
	// closeFrame is what the writer sends when the reader has ended; set by
	// the reader before it closes out.
	closeFrame closing
	dropReason atomic.Pointer[string] // set once, by the first goroutine to see a drop
	started    time.Time

	lastRequest atomic.Int64 // unix nanos
	handling    atomic.Bool  // a request is being handled: the connection is not idle
	draining    atomic.Bool

	look      lookout // reads while a search runs (lookout.go)
	watching  bool    // the reader told the lookout of the request it runs
	lookedOut bool    // the lookout may hold frames: the reader takes them first
}

// reply is one encoded reply; release, if set, runs when the writer takes it.
type reply struct {
	buf     *bytes.Buffer
	release func()
}

// closing is the close frame the writer sends when the reader has ended.
type closing struct {
	code   int // noCloseFrame when the peer is gone
	reason string
}

const noCloseFrame = -1

// queued replies a connection may have in flight before its reader waits for
// the writer: enough for pipelining; their bytes are bounded separately.
const queued = 4

func newConn(s *Server, ws *websocket.Conn) *conn {
	c := &conn{s: s, ws: ws, remote: ws.RemoteAddr().String(), batches: map[uint64]*batch{},
		out: make(chan reply, queued), free: make(chan *bytes.Buffer, 2), taken: make(chan struct{}, 1)}
	c.codec = c.newCodec()
	c.look.changed.L = &c.look.mu
	c.closeFrame = closing{code: websocket.CloseNormalClosure}
	c.started = time.Now()
	c.lastRequest.Store(c.started.UnixNano())
	ws.SetReadLimit(s.cfg.MaxMessageBytes)
	if s.cfg.Token != "" {
		ws.SetReadLimit(preHelloReadLimit)
	}
	return c
}

func (c *conn) newCodec() *wire.Codec {
	codec := wire.NewCodec()
	codec.MaxItems = 2*c.s.cfg.MaxEnvsPerConnection + 1024 // seeds and env_ids for a whole batch, and options
	return codec
}

// run is the reader: it owns the connection's batches and frees them when
// the connection ends, however it ends.
func (c *conn) run() {
	done := make(chan struct{})
	go func() { c.write(); close(done) }()
	c.ws.SetPongHandler(func(string) error { c.extendReadDeadline(); return nil })
	c.extendReadDeadline()
	c.serve()
	close(c.out)
	<-done
	c.ws.Close()
	for h := range c.batches {
		c.closeBatch(h)()
	}
	c.dropFree()
	c.in = bytes.Buffer{}
	c.countFrameBuffer()
	c.s.forget(c)
}

// serve reads and answers requests until the connection ends or drains.
func (c *conn) serve() {
	for {
		frame, err := c.readFrame()
		if err != nil {
			c.readEnded(err)
			return
		}
		if c.dropReason.Load() != nil { // cut, or the writer failed: answer no more
			return
		}
		c.lastRequest.Store(time.Now().UnixNano())
		c.extendReadDeadline()
		c.handling.Store(true)
		r, closeAfter := c.handle(frame)
		c.unwatch()
		c.lastRequest.Store(time.Now().UnixNano()) // idleness counts from the reply
		c.handling.Store(false)
		c.forgetRequest()
		if !c.deliver(r) {
			return
		}
		if closeAfter {
			c.end(dropUnauthorized, websocket.ClosePolicyViolation, "wrong or missing token")
			return
		}
		if !c.waitForWriter() {
			return
		}
	}
}

// readFrame reads the next message, or takes the one the lookout read; a
// text message is read too, and then refused by dispatch. The frame is
// valid until the next readFrame.
func (c *conn) readFrame() ([]byte, error) {
	if f, err, ok := c.queuedFrame(); ok {
		c.text = f.text
		return f.data, err
	}
	kind, r, err := c.ws.NextReader()
	if err != nil {
		return nil, err
	}
	c.in.Reset()
	n, err := c.in.ReadFrom(r)
	c.s.metrics.bytesIn.Add(float64(n))
	if err != nil {
		return nil, err
	}
	c.text = kind != websocket.BinaryMessage
	return c.in.Bytes(), nil
}

// forgetRequest lets go of what a large request left behind: the frame
// buffer, the decoder's scratch space and the decoded values.
func (c *conn) forgetRequest() {
	c.req = wire.Request{}
	if c.in.Cap() > keptFrameBytes {
		c.in = bytes.Buffer{}
		c.codec = c.newCodec()
	}
	c.countFrameBuffer()
}

func (c *conn) countFrameBuffer() {
	c.s.metrics.frameBytes.Add(float64(c.in.Cap() - c.inCap))
	c.inCap = c.in.Cap()
}

// readEnded records why reading stopped: the client closed, went silent,
// sent too much, or the server is draining.
func (c *conn) readEnded(err error) {
	var ne net.Error
	switch {
	case websocket.IsCloseError(err, websocket.CloseNormalClosure, websocket.CloseGoingAway, websocket.CloseNoStatusReceived):
		c.s.cfg.Logger.Debug("client closed the connection", "remote", c.remote)
	case c.draining.Load():
		c.end(dropShutdown, websocket.CloseGoingAway, "server shutting down")
	case errors.Is(err, websocket.ErrReadLimit):
		c.end(dropTooBig, websocket.CloseMessageTooBig, "message too big")
	case errors.As(err, &ne) && ne.Timeout() && c.owesHello():
		c.end(dropHelloTimeout, websocket.ClosePolicyViolation, "no hello with the token in time")
	case errors.As(err, &ne) && ne.Timeout():
		c.end(dropPingTimeout, noCloseFrame, "")
	case c.dropReason.Load() != nil: // the writer ended it and said why
	default:
		c.dropped(dropReadError, "err", err)
	}
}

// end records a drop, logs it, and sets the close frame the writer sends
// (noCloseFrame: none, the peer is gone).
func (c *conn) end(reason string, code int, text string) {
	c.dropped(reason)
	c.closeFrame = closing{code: code, reason: text}
}

// dropped counts and logs a drop once, whichever goroutine sees it first;
// attrs add to the log line.
func (c *conn) dropped(reason string, attrs ...any) {
	if c.dropReason.CompareAndSwap(nil, &reason) {
		c.s.cfg.Logger.Info("connection dropped", append([]any{"reason", reason, "remote", c.remote}, attrs...)...)
		c.s.metrics.drops[reason].Inc()
	}
}

// extendReadDeadline gives the peer until the next missed pong; a draining
// connection reads only what has already arrived, and one that owes a hello
// has until HelloTimeout.
func (c *conn) extendReadDeadline() {
	_ = c.ws.SetReadDeadline(c.readDeadline())
	if c.draining.Load() { // drain may have run in between
		_ = c.ws.SetReadDeadline(time.Now())
	}
}

func (c *conn) readDeadline() time.Time {
	switch {
	case c.draining.Load():
		return time.Now()
	case c.owesHello() && c.s.cfg.HelloTimeout > 0:
		return c.started.Add(c.s.cfg.HelloTimeout)
	case c.s.cfg.PingInterval > 0:
		return time.Now().Add(c.s.cfg.pongWait())
	}
	return time.Time{}
}

func (c *conn) owesHello() bool { return c.s.cfg.Token != "" && !c.authed }

// drain makes the reader stop at the first frame that has not already
// arrived: what the server has read is answered, and nothing more is read.
func (c *conn) drain() {
	c.draining.Store(true)
	_ = c.ws.SetReadDeadline(time.Now())
}
