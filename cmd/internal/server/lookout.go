package server

import (
	"io"
	"sync"
	"time"

	"github.com/gorilla/websocket"
	"github.com/splendor-rl/splendor/encoding/wire"
	"github.com/splendor-rl/splendor/env"
)

// The lookout. A request that searches (bot_actions with a searching bot,
// a step or reset whose bots search, a search that plays out its leaves)
// may run for seconds, minutes on a busy machine. Meanwhile its client may
// leave, close the batch, ping, or send more requests. So while the reader
// runs such a request, another goroutine, the lookout, goes on reading the
// connection: it answers pings, queues the requests it reads for the reader
// (in order; max_message_bytes of them at most, more wait in the socket
// until the search ends), and stops the search at once when the connection
// ends or a close of the searching batch arrives, however many requests
// came before it. When the reader has no search running any more, the
// lookout hands the connection back after the frame it is reading.
type lookout struct {
	mu      sync.Mutex
	changed sync.Cond // a frame was queued or taken, the search ended, or the lookout stopped
	frames  []frame   // read and not yet taken, oldest first
	queued  int64     // their buffers' bytes
	err     error     // why the lookout stopped reading: the connection's end
	reading bool      // its goroutine runs
	search  *env.Vector
	handle  uint64 // search's batch
}

// frame is one message as read: msgpack, or a text message the protocol
// refuses.
type frame struct {
	data []byte
	text bool
}

// watch tells the lookout that the reader is about to run a search on b:
// what a disconnect, a close of handle (read now or already queued), or the
// server's cut stops.
func (c *conn) watch(b *batch, handle uint64) {
	l := &c.look
	l.mu.Lock()
	defer l.mu.Unlock()
	l.search, l.handle = b.v, handle
	c.watching = true
	gone := l.err != nil && !c.draining.Load() || c.dropReason.Load() != nil // after cut's dropped: cut stops what it finds
	if gone || l.closeQueued(handle) {
		b.v.Stop()
	}
	if !l.reading && l.err == nil {
		l.reading, c.lookedOut = true, true
		go c.lookOut()
	}
}

// unwatch tells the lookout that the search has ended.
func (c *conn) unwatch() {
	if !c.watching {
		return
	}
	c.watching = false
	l := &c.look
	l.mu.Lock()
	l.search = nil
	l.changed.Broadcast()
	l.mu.Unlock()
}

// stopSearch cuts the watched search short, if one runs.
func (c *conn) stopSearch() {
	l := &c.look
	l.mu.Lock()
	if l.search != nil {
		l.search.Stop()
	}
	l.mu.Unlock()
}

// lookOut is the lookout's goroutine: it reads frames while a search runs,
// and the one after.
func (c *conn) lookOut() {
	l := &c.look
	for {
		f, err := c.readMessage()
		l.mu.Lock()
		if err != nil {
			l.err = err
			if l.search != nil && !c.draining.Load() { // a drain answers what it read
				l.search.Stop()
			}
			break
		}
		c.lastRequest.Store(time.Now().UnixNano())
		c.extendReadDeadline()
		l.frames, l.queued = append(l.frames, f), l.queued+int64(cap(f.data))
		if l.search != nil && !f.text && closes(f.data, l.handle) {
			l.search.Stop()
		}
		l.changed.Broadcast()
		for l.search != nil && l.queued >= c.s.cfg.MaxMessageBytes {
			l.changed.Wait() // the rest waits in the socket until the reader takes these
		}
		if l.search == nil {
			break
		}
		l.mu.Unlock()
	}
	l.reading = false
	l.changed.Broadcast()
	l.mu.Unlock()
}

// queuedFrame takes the oldest frame the lookout read, waiting for the one
// it is reading; ok is false when it has nothing more and has stopped
// (the reader reads on its own again), err its reason when the connection
// ended.
func (c *conn) queuedFrame() (f frame, err error, ok bool) {
	if !c.lookedOut {
		return frame{}, nil, false
	}
	l := &c.look
	l.mu.Lock()
	defer l.mu.Unlock()
	for l.reading && len(l.frames) == 0 {
		l.changed.Wait()
	}
	switch {
	case len(l.frames) > 0:
		f, l.frames[0] = l.frames[0], frame{}
		l.frames, l.queued = l.frames[1:], l.queued-int64(cap(f.data))
		if len(l.frames) == 0 {
			l.frames = nil // let go of the array the queue walked along
		}
		l.changed.Broadcast()
		return f, nil, true
	case l.err != nil:
		return frame{}, l.err, true
	}
	c.lookedOut = false
	return frame{}, nil, false
}

// closeQueued reports whether a frame waiting in the queue closes handle.
func (l *lookout) closeQueued(handle uint64) bool {
	for _, f := range l.frames {
		if !f.text && closes(f.data, handle) {
			return true
		}
	}
	return false
}

// readMessage reads the next message whole: at most max_message_bytes
// (the read limit), in a buffer grown to at most twice that.
func (c *conn) readMessage() (frame, error) {
	kind, r, err := c.ws.NextReader()
	if err != nil {
		return frame{}, err
	}
	data, err := io.ReadAll(r)
	c.s.metrics.bytesIn.Add(float64(len(data)))
	return frame{data: data, text: kind != websocket.BinaryMessage}, err
}

// closeRequestBytes is more than any close request takes: {id, op, handle}.
const closeRequestBytes = 64

// closes reports whether a request frame is a close of handle; a frame
// longer than any close is not decoded.
func closes(data []byte, handle uint64) bool {
	if len(data) > closeRequestBytes {
		return false
	}
	var req wire.Request
	return wire.NewCodec().DecodeRequest(data, &req) == nil && req.Op == wire.OpClose && req.Handle == handle
}
