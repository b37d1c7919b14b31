package server

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"github.com/splendor-rl/splendor/encoding/wire"
	"github.com/stretchr/testify/require"
)

// FuzzProtocol drives every op of the protocol against one live server:
// each input is a sequence of requests, mostly valid (real handles, legal
// actions, states read back, small searches answered round after round),
// some hostile (wrong types, out-of-range numbers, bad evaluations, broken
// frames), some pipelined. Every reply is checked (protocol_fuzz_check_test.go):
// one per request, in order, with its id; never internal; refused exactly
// when the request must be; tensors of the right shapes; masks of 0s and
// 1s; search values in [−1, 1] and policies that are distributions over
// the legal actions. The connection must stay open, a bystander connection
// must keep stepping, and once the connection closes the server must hold
// nothing of it. A failure prints the requests and replies that led to it.
//
// Plain go test runs the seed corpus and a few hundred inputs drawn from a
// fixed seed; for a long run (docs/server.md):
//
//	go test -run '^$' -fuzz FuzzProtocol -fuzztime 10m -fuzzminimizetime 5s -parallel 1 ./cmd/internal/server/
func FuzzProtocol(f *testing.F) {
	h := startFuzzHarness(f)
	for _, in := range h.protocolSeeds() {
		f.Add(in)
	}
	n := 300
	if testing.Short() {
		n = 50
	}
	for _, in := range generatedInputs(n) {
		f.Add(in)
	}
	f.Fuzz(h.play)
}

// The ops a record's first byte picks (modulo numOps); from pipelined on,
// its request goes out before the reply to the one before is read.
const (
	opHello = iota
	opMake
	opReset
	opStep
	opClose
	opGetState
	opSetState
	opDeterminize
	opFork
	opBotActions
	opView
	opSearch
	opEvaluate
	opSearchToDone
	opFrame
	opSearchThenClose
	numOps

	pipelined = 0xc0
)

var fuzzOps = [numOps]func(*fuzzSession, *draw){
	opHello:           sending((*fuzzSession).genHello),
	opMake:            (*fuzzSession).makeBatch,
	opReset:           sending(func(s *fuzzSession, d *draw) *sentRequest { return s.genSeeded(d, "reset") }),
	opStep:            sending((*fuzzSession).genStep),
	opClose:           sending((*fuzzSession).genClose),
	opGetState:        sending((*fuzzSession).genGetState),
	opSetState:        sending((*fuzzSession).genSetState),
	opDeterminize:     sending(func(s *fuzzSession, d *draw) *sentRequest { return s.genSeeded(d, "determinize") }),
	opFork:            sending((*fuzzSession).genFork),
	opBotActions:      sending((*fuzzSession).genBotActions),
	opView:            sending((*fuzzSession).genView),
	opSearch:          sending((*fuzzSession).genSearch),
	opEvaluate:        sending((*fuzzSession).genEvaluate),
	opSearchToDone:    (*fuzzSession).searchToDone,
	opFrame:           sending((*fuzzSession).genFrame),
	opSearchThenClose: (*fuzzSession).searchThenClose,
}

func sending(gen func(*fuzzSession, *draw) *sentRequest) func(*fuzzSession, *draw) {
	return func(s *fuzzSession, d *draw) { s.send(gen(s, d)) }
}

const (
	maxRecords  = 48               // requests an input sends, about
	maxInFlight = 4                // requests sent before their replies are read
	replyWait   = 30 * time.Second // a reply later than this is a hang
)

// fuzzConfig is a test server whose search budget keeps an input's work to
// milliseconds: a few envs of a few simulations fit, more is refused.
func fuzzConfig() Config {
	cfg := testConfig()
	cfg.MaxSearchIterations = 64
	return cfg
}

// fuzzHarness is the live server of one fuzz process, the options its
// envs take, and a bystander connection that must keep working whatever
// the fuzzed connections do.
type fuzzHarness struct {
	srv       *Server
	url       string
	options   map[string][]wire.OptionSpec
	bystander *fuzzBystander
	memory    int64 // what the server commits with only the bystander connected
}

func startFuzzHarness(f *testing.F) *fuzzHarness {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(f, err)
	h := &fuzzHarness{srv: New(fuzzConfig()), url: "ws://" + ln.Addr().String() + "/ws"}
	go func() { _ = h.srv.Serve(ln) }()
	f.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = h.srv.Shutdown(ctx)
	})
	h.bystander, h.options = newFuzzBystander(f, h.url)
	h.memory = h.srv.memory.used.Load()
	return h
}

// fuzzSession is one input's connection and what it learnt.
type fuzzSession struct {
	t        *testing.T
	h        *fuzzHarness
	ws       *websocket.Conn
	nextID   uint64
	batches  []*fuzzBatch
	stub     *fuzzBatch // what requests naming no batch are drawn for
	inFlight []*sentRequest
	log      []string
	at       uint64 // the id of the reply being checked
}

// play runs one input on a fresh connection (once the server has let go
// of the last one, which a failed input leaves to close on its own).
func (h *fuzzHarness) play(t *testing.T, in []byte) {
	require.True(t, h.released(), "the server still holds what an earlier input made")
	ws, _, err := websocket.DefaultDialer.Dial(h.url, nil)
	require.NoError(t, err)
	s := &fuzzSession{t: t, h: h, ws: ws, stub: newFuzzBatch(0, msg{"id": "splendor-v1", "num_envs": 2,
		"players": 2, "num_actions": 78, "obs_shape": []int{442}, "obs_dtype": "uint8"})}
	defer ws.Close()
	for k := 0; len(in) > 0 && k < maxRecords; k++ {
		rec := in[:min(recordBytes, len(in))]
		in = in[len(rec):]
		fuzzOps[int(rec[0])%numOps](s, &draw{b: rec[1:]})
		if rec[0] < pipelined || len(s.inFlight) >= maxInFlight {
			s.flush()
		}
	}
	s.send(&sentRequest{m: msg{"op": "hello"}, op: "hello", expect: mustSucceed}) // still open, still in step
	s.flush()
	s.hangUp()
	h.checkReleased(s)
}

// hangUp closes the connection, and checks that no reply came after the
// last one.
func (s *fuzzSession) hangUp() {
	s.at = 0
	_ = s.ws.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(websocket.CloseNormalClosure, ""),
		time.Now().Add(time.Second))
	_ = s.ws.SetReadDeadline(time.Now().Add(replyWait))
	if _, frame, err := s.ws.ReadMessage(); err == nil {
		s.fail("a reply that answers no request: % x", frame[:min(len(frame), 64)])
	}
	s.ws.Close()
}

func (s *fuzzSession) send(r *sentRequest) {
	if len(s.inFlight) > 0 && r.expect == mustSucceed {
		r.expect = mayFail // drawn from a model that has not seen the replies in flight
	}
	for _, earlier := range s.inFlight {
		if r.op == "close" && r.b != nil && earlier.b == r.b && earlier.expect == mustSucceed {
			earlier.expect = mayFail // the close may cut it short
		}
	}
	if r.m != nil {
		s.nextID++
		r.id, r.m["id"] = s.nextID, s.nextID
		r.frame = encodeRequest(r.m)
	}
	kind := websocket.BinaryMessage
	if r.text {
		kind = websocket.TextMessage
	}
	s.logf("→ #%d %v", r.id, r)
	s.inFlight = append(s.inFlight, r)
	if err := s.ws.WriteMessage(kind, r.frame); err != nil {
		s.fail("sending #%d: %v", r.id, err)
	}
}

// flush reads and checks the replies in flight, checks what the server
// holds, then lets the bystander step.
func (s *fuzzSession) flush() {
	for _, r := range s.inFlight {
		s.receive(r)
	}
	s.inFlight = s.inFlight[:0]
	s.checkHeld()
	s.h.bystander.step(s)
}

// checkHeld: the server holds the envs of the batches open (and the
// bystander's), and search memory exactly while a search waits (a close's
// reply comes after its batch is freed).
func (s *fuzzSession) checkHeld() {
	envs, waiting := s.h.bystander.envs, false
	for _, b := range s.open() {
		envs += int64(b.n)
		waiting = waiting || b.searches != [MaxSearchParts]*fuzzSearch{}
	}
	if held := s.h.srv.envs.used.Load(); held != envs {
		s.fail("the server holds %d envs, the open batches and the bystander's %d", held, envs)
	}
	if held := s.h.srv.searchMemory.used.Load(); (held != 0) != waiting {
		s.fail("the server holds %d bytes of search memory, and a search waits: %v", held, waiting)
	}
}

func (s *fuzzSession) receive(r *sentRequest) {
	s.at = r.id
	_ = s.ws.SetReadDeadline(time.Now().Add(replyWait))
	kind, frame, err := s.ws.ReadMessage()
	if err != nil {
		s.fail("no reply: the connection ended or hung: %v", err)
	}
	m, err := decodeReply(frame)
	if kind != websocket.BinaryMessage || err != nil {
		s.fail("a reply that is not one msgpack map in a binary message (%v): % x", err, frame[:min(len(frame), 64)])
	}
	s.logf("← #%d %s", r.id, show(m))
	s.check(r, m)
}

func (s *fuzzSession) logf(format string, args ...any) {
	s.log = append(s.log, fmt.Sprintf(format, args...))
}

func (s *fuzzSession) fail(format string, args ...any) {
	s.t.Helper()
	s.t.Fatalf("at #%d: %s\n\nrequests (→) and replies (←) in the order they went:\n%s",
		s.at, fmt.Sprintf(format, args...), strings.Join(s.log, "\n"))
}

// open is the batches not closed.
func (s *fuzzSession) open() []*fuzzBatch {
	var out []*fuzzBatch
	for _, b := range s.batches {
		if !b.closed {
			out = append(out, b)
		}
	}
	return out
}

func (s *fuzzSession) closedHandle() uint64 {
	for _, b := range s.batches {
		if b.closed {
			return b.handle
		}
	}
	return 1 << 41
}

// checkReleased: once a connection has closed, the server holds none of
// its envs, searches or buffers.
func (h *fuzzHarness) checkReleased(s *fuzzSession) {
	if !h.released() {
		s.fail("the connection closed, yet the server holds %d envs (the bystander %d), %d bytes of searches and %d bytes (else %d)",
			h.srv.envs.used.Load(), h.bystander.envs, h.srv.searchMemory.used.Load(), h.srv.memory.used.Load(), h.memory)
	}
}

// released waits, up to a few seconds, until the server holds only what
// the bystander holds.
func (h *fuzzHarness) released() bool {
	for start := time.Now(); time.Since(start) < 5*time.Second; time.Sleep(time.Millisecond) {
		if h.srv.envs.used.Load() == h.bystander.envs && h.srv.searchMemory.used.Load() == 0 &&
			h.srv.memory.used.Load() == h.memory {
			return true
		}
	}
	return false
}

// fuzzBystander is a connection of its own that steps a vs-bots batch
// after every exchange of the fuzzed one, and now and then makes a new
// one in its place.
type fuzzBystander struct {
	c      *Client
	handle uint64
	last   wire.BatchReply
	steps  int
	envs   int64
}

// newFuzzBystander connects the bystander; its hello tells the options
// each env takes.
func newFuzzBystander(f *testing.F, url string) (*fuzzBystander, map[string][]wire.OptionSpec) {
	c, err := Dial(url)
	require.NoError(f, err)
	f.Cleanup(func() { c.Close() })
	y := &fuzzBystander{c: c, envs: 2}
	var hello wire.HelloReply
	require.NoError(f, c.Call(wire.Request{Op: wire.OpHello}, &hello))
	require.NoError(f, y.remake())
	return y, hello.EnvOptions
}

// remake closes the bystander's batch, if any, and makes and resets
// another.
func (y *fuzzBystander) remake() error {
	if y.handle != 0 {
		if err := y.c.Call(wire.Request{Op: wire.OpClose, Handle: y.handle}, &wire.CloseReply{}); err != nil {
			return err
		}
	}
	var made wire.MakeReply
	if err := y.c.Call(wire.Request{Op: wire.OpMake, Env: "splendor-duel-v1", NumEnvs: int(y.envs),
		Options: map[string]any{"mode": "vs_bots", "bots": "greedy"}, Seed: seed(uint64(y.steps))}, &made); err != nil {
		return err
	}
	y.handle = made.Handle
	return y.c.Call(wire.Request{Op: wire.OpReset, Handle: y.handle}, &y.last)
}

func (y *fuzzBystander) step(s *fuzzSession) {
	_ = y.c.ws.SetReadDeadline(time.Now().Add(replyWait))
	y.steps++
	err := y.c.Call(wire.Request{Op: wire.OpStep, Handle: y.handle, Actions: ptr(firstLegal(y.last.Mask))}, &y.last)
	if err == nil && y.steps%64 == 0 {
		err = y.remake()
	}
	if err != nil {
		s.fail("the bystander, on a connection of its own, failed: %v", err)
	}
}

// generatedInputs are n random inputs from a fixed seed, each starting
// with a make: under plain go test they run with the seed corpus, so that
// every test run fuzzes a little.
func generatedInputs(n int) [][]byte {
	r := rand.New(rand.NewPCG(7, 11))
	out := make([][]byte, n)
	for i := range out {
		in := make([]byte, recordBytes*(1+r.IntN(24)))
		for j := range in {
			in[j] = byte(r.UintN(256))
		}
		in[0] = opMake
		out[i] = in
	}
	return out
}

// makeBatch makes a batch and, most of the time, resets it: a batch that
// waits for its first reset has little to search.
func (s *fuzzSession) makeBatch(d *draw) {
	made := len(s.batches)
	s.send(s.genMake(d))
	s.flush()
	if len(s.batches) > made && d.pick(8) > 0 {
		b := s.batches[made]
		s.send(&sentRequest{m: msg{"op": "reset", "handle": b.handle}, op: "reset", b: b, expect: mustSucceed})
	}
}

// searchToDone answers a waiting search's leaves (or starts a search and
// answers that) round after round until the search is done.
func (s *fuzzSession) searchToDone(d *draw) {
	s.flush()
	b, fs := s.searching(d.byte())
	if b == nil {
		r := s.genSearch(d)
		s.send(r)
		s.flush()
		if b, fs = r.b, r.search; b == nil || fs == nil {
			return
		}
	}
	rng := d.rand()
	for round := 0; b.searches[fs.part] == fs && round < 64; round++ {
		m := msg{"op": "evaluate", "handle": b.handle}
		if fs.part != 0 {
			m["part"] = fs.part
		}
		validEvaluation(m, rng, rng.IntN(6), fs, b.actions)
		s.send(&sentRequest{m: m, op: "evaluate", b: b, search: fs, expect: mustSucceed})
		s.flush()
	}
}

// searchThenClose sends a search on playouts (which the server runs to its
// end at once) or a bot's advice, and right behind it, before reading
// either reply, a close of its batch: the close may cut the work short.
func (s *fuzzSession) searchThenClose(d *draw) {
	s.flush()
	r := s.genSearch(d)
	if d.pick(3) == 0 {
		r = s.genBotActions(d)
	}
	if set, ok := r.m["settings"].(msg); ok && set["playouts"] == nil {
		set["playouts"] = true
	}
	if r.expect == mustSucceed {
		r.expect = mayFail // cut short: unknown_handle
	}
	s.send(r)
	if r.b != nil {
		closing := &sentRequest{m: msg{"op": "close", "handle": r.b.handle}, op: "close", b: r.b}
		s.send(closing)
		closing.expect = mustSucceed // whatever the search before it did
	}
	s.flush()
}
