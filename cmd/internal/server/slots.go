package server

import (
	"net"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gorilla/websocket"
)

// Slots. Every accepted socket holds one of max_connections + httpSpare
// slots until it is closed, so that what the server holds is bounded. A
// socket is a stranger until it is a WebSocket that may send requests
// (upgraded, and authenticated when the server has a token): an idle
// keep-alive HTTP connection, a request or an upgrade still being sent, a
// WebSocket that owes its hello. Strangers cost a peer nothing, so they must
// not hold slots against clients: when every slot is taken, the next socket
// waits in the kernel's accept queue (first come, first served) until the
// oldest stranger has had strangerGrace, then takes that stranger's slot,
// which is closed. A client thus waits about (sockets ahead of it ÷ slots) ×
// grace, and once in it has the grace to upgrade and say hello. The
// WebSocket slots (max_connections, admit) work the same way for WebSockets
// that owe their hello.

// strangerGrace is how long a stranger keeps its slot whatever comes after
// it: enough for a client on a slow link to upgrade and say hello.
const strangerGrace = time.Second

// limitListener hands out sockets while it has slots.
type limitListener struct {
	net.Listener
	max   int
	grace time.Duration
	mu    sync.Mutex
	open  map[*countedConn]struct{}
	freed chan struct{} // a slot was given back
	done  chan struct{} // closed by Close
	once  sync.Once
}

func newLimitListener(ln net.Listener, max int, grace time.Duration) *limitListener {
	return &limitListener{Listener: ln, max: max, grace: grace, open: map[*countedConn]struct{}{},
		freed: make(chan struct{}, 1), done: make(chan struct{})}
}

func (l *limitListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	cc := &countedConn{Conn: c, l: l}
	if err := l.seat(cc); err != nil {
		_ = c.Close()
		return nil, err
	}
	return cc, nil
}

// seat gives cc a slot, closing the oldest stranger past its grace when
// every slot is taken, or waiting until one is.
func (l *limitListener) seat(cc *countedConn) error {
	for {
		l.mu.Lock()
		if len(l.open) < l.max {
			cc.restart()
			l.open[cc] = struct{}{}
			l.mu.Unlock()
			return nil
		}
		oldest := l.oldestStranger()
		l.mu.Unlock()
		wait := l.grace // no stranger: wait for a client to leave
		if oldest != nil {
			if wait = time.Until(oldest.since().Add(l.grace)); wait <= 0 {
				_ = oldest.Close()
				continue
			}
		}
		timer := time.NewTimer(wait)
		select {
		case <-l.freed:
		case <-timer.C:
		case <-l.done:
			timer.Stop()
			return net.ErrClosed
		}
		timer.Stop()
	}
}

func (l *limitListener) oldestStranger() *countedConn {
	var oldest *countedConn
	for c := range l.open {
		if !c.settled.Load() && (oldest == nil || c.since().Before(oldest.since())) {
			oldest = c
		}
	}
	return oldest
}

// strangers counts the sockets holding slots that are strangers.
func (l *limitListener) strangers() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
	for c := range l.open {
		if !c.settled.Load() {
			n++
		}
	}
	return n
}

func (l *limitListener) Close() error {
	l.once.Do(func() { close(l.done) })
	return l.Listener.Close()
}

// countedConn gives its slot back once, however often it is closed.
type countedConn struct {
	net.Conn
	l       *limitListener
	started atomic.Int64 // unix nanos: when it got its slot, or its WebSocket slot
	settled atomic.Bool  // a WebSocket that may send requests: never closed for another
	closed  atomic.Bool
	once    sync.Once
}

func (c *countedConn) since() time.Time { return time.Unix(0, c.started.Load()) }

// restart begins a stranger's grace: when it gets its slot, and again when
// its WebSocket gets one, so that the time it waited for that slot does not
// count against the time it has to say hello.
func (c *countedConn) restart() { c.started.Store(time.Now().UnixNano()) }

func (c *countedConn) Close() error {
	c.once.Do(func() {
		c.closed.Store(true)
		c.l.mu.Lock()
		delete(c.l.open, c)
		c.l.mu.Unlock()
		select {
		case c.l.freed <- struct{}{}:
		default:
		}
	})
	return c.Conn.Close()
}

// upgraded restarts a WebSocket's grace when it gets its WebSocket slot.
func upgraded(ws *websocket.Conn) {
	if cc, ok := ws.NetConn().(*countedConn); ok {
		cc.restart()
	}
}

// settle marks a WebSocket as a client: upgraded, and authenticated when
// the server has a token.
func settle(ws *websocket.Conn) {
	if ws == nil {
		return // a test's connection without a socket
	}
	if cc, ok := ws.NetConn().(*countedConn); ok {
		cc.settled.Store(true)
	}
}

// stranger says whether c is a WebSocket that owes its hello and is still
// open, and since when.
func stranger(c *conn) (*countedConn, bool) {
	cc, ok := c.ws.NetConn().(*countedConn)
	return cc, ok && !cc.settled.Load() && !cc.closed.Load()
}

// makeWay is admit's part when every WebSocket slot is taken (s.mu held):
// it closes the oldest WebSocket that owes its hello and has had its grace,
// and says how long to wait for a slot to be given back; ok is false when
// no WebSocket owes its hello.
func (s *Server) makeWay() (wait time.Duration, ok bool) {
	var oldest *conn
	var oldestSocket *countedConn
	for c := range s.conns {
		if cc, owes := stranger(c); owes && (oldest == nil || cc.since().Before(oldestSocket.since())) {
			oldest, oldestSocket = c, cc
		}
	}
	if oldest == nil {
		return 0, false
	}
	if wait = time.Until(oldestSocket.since().Add(s.grace)); wait > 0 {
		return wait, true
	}
	oldest.dropped(dropHelloTimeout)
	_ = oldestSocket.Close() // its reader ends and releases its slot
	return s.grace, true
}

// waitForSlot waits (s.mu held) until a slot is released or d has passed.
func (s *Server) waitForSlot(d time.Duration) {
	timer := time.AfterFunc(d, func() {
		s.mu.Lock()
		s.slotFreed.Broadcast()
		s.mu.Unlock()
	})
	s.slotFreed.Wait()
	timer.Stop()
}

// strangersHeld counts the slots strangers hold (for tests and metrics).
func (s *Server) strangersHeld() int {
	s.mu.Lock()
	ln := s.listener
	s.mu.Unlock()
	if ln == nil {
		return 0
	}
	return ln.strangers()
}
