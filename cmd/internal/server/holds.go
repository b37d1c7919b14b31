package server

import (
	"fmt"
	"sync"
	"time"

	"github.com/splendor-rl/splendor/encoding/wire"
	"github.com/splendor-rl/splendor/env"
)

// Holds. A guided search (op search) holds a bound of its tree's memory
// from max_search_memory and max_memory between its client's round trips.
// A client that starts a search and never evaluates must not keep it: a
// search that waits longer than search_timeout for its evaluations ends
// and gives its memory back, and one that has waited searchIdle while
// another client's search finds no room ends for it (that search waits up
// to searchIdle for room, while others' searches wait for their clients,
// before it is refused). A client's own searches are its own to end. Either way the client's
// next evaluate is limit_exceeded, saying why.

// defaultSearchTimeout is search_timeout's default: far longer than any
// network takes to evaluate a round's leaves.
const defaultSearchTimeout = time.Minute

// searchIdle is how long a search must have waited for its evaluations
// before another client's search may take its memory, and how long a
// search waits for room: a network answers a round in milliseconds to a
// few hundred, so a client silent for this long is idle.
const searchIdle = 2 * time.Second

// roomPoll is how often a search waiting for room looks again.
const roomPoll = 20 * time.Millisecond

// hold is one guided search and what it holds; mu orders its owner (the
// connection's reader) with its deadline and with other clients taking
// its memory.
type hold struct {
	s       *Server
	owner   *conn
	mu      sync.Mutex
	g       *env.GuidedBatch // nil once ended
	bytes   int64
	envs    int       // searched (the owner's to read)
	packed  bool      // its replies carry mask_bits, its evaluates legal_priors
	waiting time.Time // since when it waits for evaluations; zero while the server works on it
	ended   string    // why it ended before its client saw it done
	timer   *time.Timer
}

// holdSearch reserves bytes for a search of c about to start in place of
// old (nil: none), whose bytes count as room: handed over, or handed back
// if the new search is refused. It waits up to searchIdle for room that
// idle searches of other clients may give.
func (s *Server) holdSearch(c *conn, bytes int64, old *hold) (*hold, *wire.Error) {
	room := old.handOver()
	if bytes <= room {
		s.give(room - bytes)
	} else if werr := s.reserveWaiting(c, bytes-room); werr != nil {
		old.takeBack(room)
		return nil, werr
	}
	h := &hold{s: s, owner: c, bytes: bytes}
	s.holdsMu.Lock()
	s.holds[h] = struct{}{}
	s.holdsMu.Unlock()
	return h, nil
}

// reserveWaiting reserves bytes for c's search, ending other clients' idle
// searches for room and waiting up to searchIdle for them to become idle.
func (s *Server) reserveWaiting(c *conn, bytes int64) *wire.Error {
	deadline := time.Now().Add(searchIdle + 2*roomPoll) // a search waiting now is idle by then
	for !s.reserve(bytes) {
		ended, waiting := s.endIdleSearches(c)
		switch {
		case ended: // room was made: take it
		case !waiting || time.Now().After(deadline):
			return wire.Errorf(wire.CodeLimit, "a search of these envs may hold %d MiB, more than max_search_memory or max_memory has left (%d of %d MiB held by searches): search fewer envs at a time or with fewer simulations",
				bytes>>20, s.searchMemory.used.Load()>>20, s.searchMemory.limit>>20)
		default:
			time.Sleep(roomPoll)
		}
	}
	return nil
}

// reserve takes bytes from both budgets, or from neither.
func (s *Server) reserve(bytes int64) bool {
	if !s.searchMemory.take(bytes) {
		return false
	}
	if !s.memory.take(bytes) {
		s.searchMemory.give(bytes)
		return false
	}
	return true
}

// give gives bytes back to both budgets.
func (s *Server) give(bytes int64) {
	s.searchMemory.give(bytes)
	s.memory.give(bytes)
}

// endIdleSearches ends the searches of clients other than c that have
// waited searchIdle for their evaluations, for the room c's search needs;
// it reports whether it ended any, and whether any of theirs waits still
// (and so may give room soon).
func (s *Server) endIdleSearches(c *conn) (ended, waiting bool) {
	s.holdsMu.Lock()
	holds := make([]*hold, 0, len(s.holds))
	for h := range s.holds {
		if h.owner != c {
			holds = append(holds, h)
		}
	}
	s.holdsMu.Unlock()
	for _, h := range holds {
		if h.endIfWaited(searchIdle, "another client's search needed the memory it held") {
			ended = true
		} else if h.isWaiting() {
			waiting = true
		}
	}
	return ended, waiting
}

// working marks the search as the server's to run (its evaluations came);
// false if it has ended meanwhile, with the error its client gets.
func (h *hold) working() (*env.GuidedBatch, *wire.Error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.g == nil {
		return nil, wire.Errorf(wire.CodeLimit, "this batch's search ended while it waited for evaluations: %s; start it again", h.ended)
	}
	h.waiting = time.Time{}
	if h.timer != nil {
		h.timer.Stop()
	}
	return h.g, nil
}

// wait marks the search as waiting for its client's evaluations, until
// search_timeout.
func (h *hold) wait(g *env.GuidedBatch) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.g, h.waiting = g, time.Now()
	timeout := h.s.cfg.SearchTimeout
	if h.timer == nil {
		h.timer = time.AfterFunc(timeout, func() {
			h.endIfWaited(timeout, fmt.Sprintf("no evaluations came for search_timeout (%v)", timeout))
		})
		return
	}
	h.timer.Reset(timeout)
}

// endIfWaited ends the search if it has waited at least d for its
// evaluations, and says so.
func (h *hold) endIfWaited(d time.Duration, why string) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.g == nil || h.waiting.IsZero() || time.Since(h.waiting) < d {
		return false
	}
	h.ended = why
	h.end()
	return true
}

// isWaiting says the search waits for its client's evaluations.
func (h *hold) isWaiting() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.g != nil && !h.waiting.IsZero()
}

// release ends the search, if it has not ended, and forgets it.
func (h *hold) release() {
	h.mu.Lock()
	h.end()
	h.mu.Unlock()
}

// handOver takes the bytes h holds for a search replacing it, leaving the
// search itself to end with nothing to give back (0 for nil).
func (h *hold) handOver() int64 {
	if h == nil {
		return 0
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	room := h.bytes
	h.bytes = 0
	return room
}

// takeBack gives h the bytes handOver took, or the budgets if h has ended
// meanwhile.
func (h *hold) takeBack(room int64) {
	if h == nil {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.g == nil {
		h.s.give(room)
		return
	}
	h.bytes = room
}

// end lets go of the search and gives back its memory, once (h.mu held).
func (h *hold) end() {
	if h.timer != nil {
		h.timer.Stop()
	}
	if h.g != nil {
		h.g.Close()
		h.g = nil
	}
	h.s.give(h.bytes)
	h.bytes = 0
	h.s.holdsMu.Lock()
	delete(h.s.holds, h)
	h.s.holdsMu.Unlock()
}
