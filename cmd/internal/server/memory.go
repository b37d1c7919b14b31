package server

import (
	"sync/atomic"

	"github.com/splendor-rl/splendor/env"
	"github.com/splendor-rl/splendor/env/bots"
	"github.com/splendor-rl/splendor/internal/bitset"
)

// What the server holds, and the limits that bound it (configs/server.yaml
// states the same formula for users):
//
//	per connection, reserved when it is admitted: connectionBytes
//	per env, reserved by make until its close reply is sent: envBytes
//	per search slot: one bot search's tree (searchTreeBytes)
//	guided searches waiting for evaluations: max_search_memory at most
//	worst case = max_connections × connectionBytes + search slots × searchTreeBytes
//	             + max_search_memory + max_envs_total × the largest envBytes
//
// Searches run in the pool's search slots (search_slots: by default one
// fewer than the workers), each holding one tree, whatever the connections.
// A connection's queued replies are bounded by its envs (queueAllowance),
// so they are part of envBytes; everything else a connection holds is part
// of connectionBytes.
const (
	readBufferBytes  = 64 << 10 // gorilla's per-connection read buffer
	writeBufferBytes = 64 << 10 // gorilla's write buffer; a larger reply is written from its own buffer (writev), not copied
	// replySlack is what a connection may queue beyond its envs' share:
	// hello, make and error replies are small.
	replySlack = 64 << 10
	// keptFrameBytes is the largest frame buffer kept between requests;
	// a larger one is dropped once its request is answered.
	keptFrameBytes = 64 << 10
	// repliesPerEnv is how many replies' worth of an env a connection may
	// hold: two queued or pooled for the writer, one being encoded.
	repliesPerEnv = 3
)

// connectionBytes bounds what a connection holds apart from its envs' share
// of replies: its buffers; while a request is handled, the frame (a
// buffer grown to at most twice it) and the request decoded from it; while
// a search runs, the frames the lookout read behind it (under
// max_message_bytes of buffers before it reads one more, grown to at most
// twice its size: lookout.go).
func connectionBytes(maxMessage int64) int64 {
	return readBufferBytes + writeBufferBytes + 3*maxMessage + 3*maxMessage + replySlack
}

// replyBytesPerEnv is one env's share of a reset or step reply: its rows of
// every tensor (the tensor headers are within replySlack).
func replyBytesPerEnv(s *env.Spec) int64 {
	obs := int64(s.ObsSize())
	if s.ObsDtype == env.Float32 {
		obs *= 4
	}
	row := obs + int64(s.NumActions) + 4*int64(s.Players) + 1 + 1 + 4 // obs, mask, rewards, terminated, truncated, to_play
	if s.Autoreset == env.SameStep {
		row += obs + 1 // final_obs, ended
	}
	return row
}

// envBytes is what the server commits to one env of v: its state and
// buffers, and its share of the replies its connection may hold.
func envBytes(v *env.Vector) int64 {
	return int64(v.MemoryPerEnv()) + repliesPerEnv*replyBytesPerEnv(&v.Spec)
}

// budget is a count with an optional limit, taken and given back from any
// goroutine.
type budget struct {
	limit int64 // 0: none
	used  atomic.Int64
}

// take adds n unless that would pass the limit (written so that a huge n
// cannot overflow).
func (b *budget) take(n int64) bool {
	for {
		cur := b.used.Load()
		if b.limit > 0 && n > b.limit-cur {
			return false
		}
		if b.used.CompareAndSwap(cur, cur+n) {
			return true
		}
	}
}

func (b *budget) give(n int64) { b.used.Add(-n) }

// WorstCaseMemory is the most the limits of cfg let the server commit to
// connections and envs: every connection open and every env of the
// heaviest kind (HeaviestEnvBytes).
func WorstCaseMemory(cfg Config) int64 {
	return int64(cfg.MaxConnections)*connectionBytes(cfg.MaxMessageBytes) +
		int64(cfg.searchSlots())*searchTreeBytes() + cfg.MaxSearchMemory + int64(cfg.MaxEnvsTotal)*HeaviestEnvBytes()
}

// searchTreeBytes bounds the tree of one search a bot runs in a search
// slot: mcts, or a guided search on playouts (gumbel, puct) or guided by a
// baseline network (baseline+search) of the largest action table.
func searchTreeBytes() int64 {
	return max(bots.TreeBytes, bots.GuidedBytes(bots.MaxSimulations, bitset.MaxActions))
}

// HeaviestEnvBytes is envBytes of the heaviest env any client can make: of
// every registered game at every table size, with every seat's float32
// observation, same-step final observations, and of each other option
// with a list of choices the heaviest choice (features, …).
func HeaviestEnvBytes() int64 {
	pool := env.NewPool(1)
	defer pool.Close()
	heaviest := int64(0)
	for _, id := range env.IDs() {
		for players := 1; players <= bots.MaxSeats; players++ {
			opts := env.Options{"obs_dtype": "float32", "autoreset": "same_step", "obs_seats": "all", "players": players}
			if bytes, ok := heaviestWith(id, opts, pool); ok {
				heaviest = max(heaviest, bytes)
			}
		}
	}
	return heaviest
}

// heaviestWith is envBytes of env id with opts and, option by option, the
// choice that weighs most; ok is false when id refuses opts.
func heaviestWith(id string, opts env.Options, pool *env.Pool) (int64, bool) {
	weigh := func(opts env.Options) (int64, bool) {
		v, err := env.Make(id, 1, opts, 0, pool)
		if err != nil {
			return 0, false
		}
		return envBytes(v), true
	}
	heaviest, ok := weigh(opts)
	if !ok {
		return 0, false
	}
	described, _ := env.Describe(id)
	for _, o := range described {
		if _, set := opts[o.Name]; set || o.Type != "str" {
			continue
		}
		best := ""
		for _, choice := range o.Choices {
			opts[o.Name] = choice
			if bytes, fits := weigh(opts); fits && bytes > heaviest {
				heaviest, best = bytes, choice
			}
		}
		opts[o.Name] = best
		if best == "" {
			delete(opts, o.Name)
		}
	}
	return heaviest, ok
}
