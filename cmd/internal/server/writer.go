package server

import (
	"bytes"
	"time"

	"github.com/gorilla/websocket"
)

// write sends queued replies in order, pings, and closes idle connections;
// when the reader ends it sends the close frame the reader chose.
func (c *conn) write() {
	ping, idle := c.tickers()
	defer ping.Stop()
	defer idle.Stop()
	for {
		select {
		case r, ok := <-c.out:
			if !ok {
				c.sendClose()
				return
			}
			if !c.writeReply(r) {
				c.discard()
				return
			}
		case <-ping.C:
			_ = c.ws.WriteControl(websocket.PingMessage, nil, time.Now().Add(writeWait))
		case <-idle.C:
			if c.idle() {
				c.dropped(dropIdleTimeout)
				c.closeWith(websocket.CloseNormalClosure, "idle timeout")
				c.discard()
				return
			}
		}
	}
}

// tickers are the ping ticker (every PingInterval exactly, so that a peer
// that answers has a whole interval to spare before pongWait) and the idle
// check; a disabled one never fires.
func (c *conn) tickers() (ping, idle *time.Ticker) {
	never := func() *time.Ticker { t := time.NewTicker(time.Hour); t.Stop(); return t }
	ping, idle = never(), never()
	if c.s.cfg.PingInterval > 0 {
		ping = time.NewTicker(c.s.cfg.PingInterval)
	}
	if c.s.cfg.IdleTimeout > 0 {
		idle = time.NewTicker(max(c.s.cfg.IdleTimeout/4, time.Millisecond))
	}
	return ping, idle
}

// writeReply writes one reply frame, with a deadline that grows with its
// size; false means the connection is broken.
func (c *conn) writeReply(r reply) bool {
	c.took(r)
	size := r.buf.Len()
	_ = c.ws.SetWriteDeadline(time.Now().Add(writeWait + time.Duration(size>>20)*time.Second))
	err := c.ws.WriteMessage(websocket.BinaryMessage, r.buf.Bytes())
	c.written(r)
	c.recycle(r.buf)
	if err != nil {
		c.dropped(dropWriteError, "err", err, "reply_bytes", size)
		c.ws.Close() // the reader sees the error and ends
		return false
	}
	c.s.metrics.bytesOut.Add(float64(size))
	return true
}

// discard empties the reply queue after the connection broke, so that the
// reader never blocks on it.
func (c *conn) discard() {
	for r := range c.out {
		c.took(r)
		c.written(r)
		c.unhold(r.buf)
	}
}

// idle says the client sent no request for IdleTimeout, and none is being
// handled (a long search is no idleness of its client's).
func (c *conn) idle() bool {
	return !c.handling.Load() && time.Since(time.Unix(0, c.lastRequest.Load())) > c.s.cfg.IdleTimeout
}

// sendClose ends a connection whose reader stopped, with the close frame
// the reader chose.
func (c *conn) sendClose() {
	if c.closeFrame.code != noCloseFrame {
		c.closeWith(c.closeFrame.code, c.closeFrame.reason)
	}
	c.ws.Close()
}

func (c *conn) closeWith(code int, reason string) {
	msg := websocket.FormatCloseMessage(code, reason)
	_ = c.ws.WriteControl(websocket.CloseMessage, msg, time.Now().Add(time.Second))
	c.ws.Close()
}

// The reply queue. Bytes of replies queued or being written are counted in
// queued, and with the written buffers pooled in free for reuse in held. The
// reader reads no further request while queued is over one reply to every
// env the connection holds plus replySlack; a written buffer is pooled only
// while held stays within two such replies. So a connection holds at most
// three replies' worth of its envs (memory.go), with pipelining room for a
// second reply to every batch while the first is written.

// inlineReplyBytes is the largest reply the reader writes itself when the
// writer has nothing in hand: a round trip then skips waking the writer
// (tens of microseconds on a VM), and writing it takes the reader no longer
// than that. Larger replies go to the writer, so that a pipelining client's
// next request is read and stepped while they are sent.
const inlineReplyBytes = 64 << 10

// deliver sends r in order: written now by the reader when nothing is queued
// or being written (only the reader queues, so the writer is then idle and
// stays so), else queued for the writer. False means the connection broke.
func (c *conn) deliver(r reply) bool {
	if c.queued.Load() == 0 && r.buf.Len() <= inlineReplyBytes {
		c.count(r)
		return c.writeReply(r)
	}
	c.enqueue(r)
	return true
}

func (c *conn) enqueue(r reply) {
	c.count(r)
	c.out <- r
}

// count adds r to the queued bytes until written takes it off.
func (c *conn) count(r reply) {
	size := int64(r.buf.Cap())
	c.queued.Add(size)
	c.held.Add(size)
	c.s.metrics.queuedBytes.Add(float64(size))
	c.s.metrics.queued.Inc()
}

// took marks r as taken off the queue, releasing what it carries; a closed
// batch's pooled buffers go with it (every earlier reply is written). The
// release and the pooling of a buffer written meanwhile (recycle, on the
// other goroutine) take turns: else a buffer sized for the closed batch
// could be pooled after the pool was emptied, and kept for the
// connection's life.
func (c *conn) took(r reply) {
	c.s.metrics.queued.Dec()
	if r.release != nil {
		c.pooling.Lock()
		r.release()
		c.dropFree()
		c.pooling.Unlock()
	}
}

// written marks r's bytes as no longer queued, and wakes a waiting reader.
func (c *conn) written(r reply) {
	c.queued.Add(-int64(r.buf.Cap()))
	select {
	case c.taken <- struct{}{}:
	default:
	}
}

func (c *conn) oneReply() int64 { return c.replyBytes.Load() + replySlack }

// waitForWriter blocks until the queued reply bytes fit one reply to every
// env held; false if the connection has ended.
func (c *conn) waitForWriter() bool {
	for c.queued.Load() > c.oneReply() {
		if c.dropReason.Load() != nil {
			return false
		}
		<-c.taken
	}
	return true
}

// buffer returns a reply buffer, reused when the writer has pooled one.
func (c *conn) buffer() *bytes.Buffer {
	select {
	case b := <-c.free:
		c.unhold(b)
		b.Reset() // else Grow would make room for the written reply and the next one: twice the size
		return b
	default:
		return new(bytes.Buffer)
	}
}

// recycle pools a written buffer while the connection's held bytes stay
// within two replies to its envs.
func (c *conn) recycle(b *bytes.Buffer) {
	c.pooling.Lock()
	defer c.pooling.Unlock()
	if c.held.Load() <= 2*c.oneReply() {
		select {
		case c.free <- b:
			return
		default:
		}
	}
	c.unhold(b)
}

func (c *conn) unhold(b *bytes.Buffer) {
	c.held.Add(-int64(b.Cap()))
	c.s.metrics.queuedBytes.Sub(float64(b.Cap()))
}

// dropFree lets go of pooled buffers.
func (c *conn) dropFree() {
	for {
		select {
		case b := <-c.free:
			c.unhold(b)
		default:
			return
		}
	}
}
