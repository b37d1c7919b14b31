package server

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"github.com/splendor-rl/splendor/encoding/wire"
	"github.com/splendor-rl/splendor/env/splendorenv"
	"github.com/stretchr/testify/require"
)

// An oversize frame closes that connection with 1009 before it is buffered;
// the server and other connections carry on.
func TestOversizeFrameClosesOnlyThatConnection(t *testing.T) {
	cfg := testConfig()
	cfg.MaxMessageBytes = 4096
	_, url := start(t, cfg)
	big, other := dial(t, url), dial(t, url)
	require.NoError(t, big.SendRaw(websocket.BinaryMessage, bytes.Repeat([]byte{0x90}, 5000)))
	err := big.Recv(&wire.HelloReply{})
	require.True(t, websocket.IsCloseError(err, websocket.CloseMessageTooBig), "got %v", err)
	require.NoError(t, other.Call(wire.Request{Op: wire.OpHello}, &wire.HelloReply{}))
	require.NoError(t, dial(t, url).Call(wire.Request{Op: wire.OpHello}, &wire.HelloReply{}))
}

func TestTooManyConnectionsAreRefused(t *testing.T) {
	cfg := testConfig()
	cfg.MaxConnections = 2
	_, url := start(t, cfg)
	dial(t, url)
	dial(t, url)
	_, resp, err := websocket.DefaultDialer.Dial(url, nil)
	require.Error(t, err)
	require.Equal(t, http.StatusServiceUnavailable, resp.StatusCode)
}

func TestTokenIsRequiredBeforeAnyOp(t *testing.T) {
	cfg := testConfig()
	cfg.Token = "s3cret"
	_, url := start(t, cfg)
	c := dial(t, url)
	requireCode(t, c.Call(wire.Request{Op: wire.OpMake, Env: "splendor-v1", NumEnvs: 1}, &wire.MakeReply{}), wire.CodeUnauthorized)
	require.NoError(t, c.Call(wire.Request{Op: wire.OpHello, Token: "s3cret"}, &wire.HelloReply{}))
	require.NoError(t, c.Call(wire.Request{Op: wire.OpMake, Env: "splendor-v1", NumEnvs: 1}, &wire.MakeReply{}))
}

// A wrong token is answered, then the connection is closed: each guess
// costs a connection.
func TestWrongTokenClosesTheConnection(t *testing.T) {
	cfg := testConfig()
	cfg.Token = "s3cret"
	srv, url := start(t, cfg)
	c := dial(t, url)
	requireCode(t, c.Call(wire.Request{Op: wire.OpHello, Token: "s3creu"}, &wire.HelloReply{}), wire.CodeUnauthorized)
	err := c.Recv(&wire.HelloReply{})
	require.True(t, websocket.IsCloseError(err, websocket.ClosePolicyViolation), "got %v", err)
	require.Equal(t, 1.0, counterValue(t, srv, "splendor_dropped_connections_total", "unauthorized"))
}

// Before a successful hello a connection reads small frames only, and must
// say hello within HelloTimeout: strangers hold neither memory nor slots.
func TestStrangersGetLittle(t *testing.T) {
	cfg := testConfig()
	cfg.Token = "s3cret"
	cfg.HelloTimeout = 500 * time.Millisecond // a friend's hello comes at once: stalls of a loaded machine are < 100 ms
	_, url := start(t, cfg)

	big := dial(t, url)
	require.NoError(t, big.SendRaw(websocket.BinaryMessage, bytes.Repeat([]byte{0x90}, preHelloReadLimit+1)))
	err := big.Recv(&wire.HelloReply{})
	require.True(t, websocket.IsCloseError(err, websocket.CloseMessageTooBig), "got %v", err)

	silent := dial(t, url)
	start := time.Now()
	err = silent.Recv(&wire.HelloReply{})
	require.True(t, websocket.IsCloseError(err, websocket.ClosePolicyViolation), "got %v", err)
	require.Less(t, time.Since(start), 10*time.Second, "closed by the hello timeout, not by a later limit (pings: 1 min)")

	friend := dial(t, url)
	require.NoError(t, friend.Call(wire.Request{Op: wire.OpHello, Token: "s3cret"}, &wire.HelloReply{}))
	time.Sleep(cfg.HelloTimeout + 100*time.Millisecond) // past HelloTimeout (a sleep only grows on a busy machine): a friend stays
	_, reply := makeBatch(t, friend, 1024/8, nil)
	require.Equal(t, 128, reply.Obs.Shape[0], "frames past the pre-hello limit are read after hello")
}

// The idle timeout is a separate knob: it closes a connection that sends no
// request even though it answers pings.
func TestIdleConnectionIsClosedAndFreed(t *testing.T) {
	cfg := testConfig()
	// Pings every 400 ms, each answered within two intervals: a client whose process stalls for less than an
	// interval still answers in time, so only the idle timeout ends it (a loaded machine stalls this process for
	// up to ~90 ms, measured under -race with two busy loops on two cores).
	cfg.IdleTimeout = 1200 * time.Millisecond
	cfg.PingInterval = 400 * time.Millisecond
	srv, url := start(t, cfg)
	c := dial(t, url)
	makeBatch(t, c, 10, nil)
	err := c.Recv(&wire.HelloReply{}) // nothing to read: answers pings while it waits for the close
	require.True(t, websocket.IsCloseError(err, websocket.CloseNormalClosure), "got %v", err)
	require.Contains(t, err.Error(), "idle timeout")
	waitUntil(t, func() bool { return srv.envs.used.Load() == 0 }, "the envs are freed")
	require.Equal(t, 1.0, counterValue(t, srv, "splendor_dropped_connections_total", "idle_timeout"))
}

// Pings go out every interval, so a peer that answers them stays connected
// however long it sends nothing; one that answers none is dropped after two
// intervals. Counted in pings, not in time: the answering peer is still
// connected after answering four, twice the time a silent one gets.
func TestPingsKeepAnsweringPeersAndDropSilentOnes(t *testing.T) {
	cfg := testConfig()
	cfg.PingInterval = 400 * time.Millisecond // a stall of this process shorter than this loses no pong (as above)
	srv, url := start(t, cfg)
	alive, silent := dial(t, url), dial(t, url)
	var pings atomic.Int64
	alive.ws.SetPingHandler(func(data string) error {
		pings.Add(1)
		return alive.ws.WriteControl(websocket.PongMessage, []byte(data), time.Now().Add(time.Second))
	})
	dropped := make(chan error, 1)
	go func() { dropped <- alive.Recv(&wire.HelloReply{}) }() // control frames are handled while reading
	connected := func() {
		select {
		case err := <-dropped:
			require.Fail(t, "the answering peer was dropped", "after %d pings: %v", pings.Load(), err)
		default:
		}
	}
	waitUntil(t, func() bool { connected(); return pings.Load() >= 4 }, "four pings")
	waitUntil(t, func() bool { connected(); return srv.connections() == 1 }, "the silent peer is dropped")
	require.Equal(t, 1.0, counterValue(t, srv, "splendor_dropped_connections_total", "ping_timeout"))
	connected()
	_ = silent
}

func TestSameStepAndFloat32Replies(t *testing.T) {
	_, url := start(t, testConfig())
	c := dial(t, url)
	made, first := makeBatch(t, c, 2, map[string]any{"autoreset": "same_step", "obs_dtype": "float32"})
	require.Equal(t, "same_step", made.Spec.Autoreset)
	require.Equal(t, "float32", first.Obs.Dtype)
	require.Len(t, first.Obs.Data, 2*splendorenv.ObsSize*4)
	require.NotNil(t, first.Ended)
	require.NotNil(t, first.FinalObs)
	require.Equal(t, []int{2, splendorenv.ObsSize}, first.FinalObs.Shape)
}

// Shutdown lets the request in flight finish and be answered, then closes
// with "going away".
func TestShutdownDrains(t *testing.T) {
	srv, url := start(t, testConfig())
	c := dial(t, url)
	made, first := makeBatch(t, c, 200, nil)
	read := counterValue(t, srv, "splendor_received_bytes_total", "")
	_, err := c.Send(wire.Request{Op: wire.OpStep, Handle: made.Handle, Actions: ptr(firstLegal(first.Mask))})
	require.NoError(t, err)
	waitUntil(t, func() bool { return counterValue(t, srv, "splendor_received_bytes_total", "") > read },
		"the server reads the step") // so that it is in flight, however long a busy machine takes
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	require.NoError(t, srv.Shutdown(ctx))
	var stepped wire.BatchReply
	require.NoError(t, c.Recv(&stepped), "the in-flight step is answered")
	require.Equal(t, 200, stepped.Obs.Shape[0])
	err = c.Recv(&stepped)
	require.True(t, websocket.IsCloseError(err, websocket.CloseGoingAway), "got %v", err)
	_, _, err = websocket.DefaultDialer.Dial(url, nil)
	require.Error(t, err, "no new connections after shutdown")
}

// obs_seats "all" reaches the client as a [N, players, obs] tensor, with the
// options as applied echoed in the spec.
func TestEverySeatsObservationOverTheWire(t *testing.T) {
	_, url := start(t, testConfig())
	c := dial(t, url)
	made, first := makeBatch(t, c, 3, map[string]any{"obs_seats": "all", "players": 3})
	require.Equal(t, []int{3, splendorenv.ObsSize}, made.Spec.ObsShape)
	require.Equal(t, []int{3, 3, splendorenv.ObsSize}, first.Obs.Shape)
	require.Len(t, first.Obs.Data, 3*3*splendorenv.ObsSize)
	require.Equal(t, "all", made.Spec.Options["obs_seats"])
	require.EqualValues(t, 3, made.Spec.Options["players"])
}

// The search ops over the wire: a state saved on one connection loads on
// another and replies identically; a bad one is bad_state and changes
// nothing.
func TestSearchOpsOverTheWire(t *testing.T) {
	_, url := start(t, testConfig())
	a, b := dial(t, url), dial(t, url)
	madeA, firstA := makeBatch(t, a, 3, nil)
	madeB, _ := makeBatch(t, b, 3, nil)
	var saved wire.StatesReply
	require.NoError(t, a.Call(wire.Request{Op: wire.OpGetState, Handle: madeA.Handle}, &saved))
	require.Len(t, saved.States, 3)
	var loaded wire.BatchReply
	require.NoError(t, b.Call(wire.Request{Op: wire.OpSetState, Handle: madeB.Handle, States: saved.States}, &loaded))
	require.Equal(t, firstA.Obs.Data, loaded.Obs.Data)
	requireCode(t, b.Call(wire.Request{Op: wire.OpSetState, Handle: madeB.Handle, EnvIDs: wire.EnvIDs{0},
		States: []string{"garbage"}}, &loaded), wire.CodeBadState)
	var advice wire.ActionsReply
	require.NoError(t, b.Call(wire.Request{Op: wire.OpBotActions, Handle: madeB.Handle, Bot: "greedy", Seed: seed(1)}, &advice))
	require.Equal(t, []int{3}, advice.Actions.Shape)
	var searched wire.ActionsReply
	require.NoError(t, b.Call(wire.Request{Op: wire.OpBotActions, Handle: madeB.Handle, EnvIDs: wire.EnvIDs{2},
		Bot: "mcts:50", Seeds: wire.Seeds{9}}, &searched))
	require.Equal(t, []int{1}, searched.Actions.Shape)
	requireCode(t, b.Call(wire.Request{Op: wire.OpBotActions, Handle: madeB.Handle, Bot: "greedy", Seed: seed(1),
		Seeds: wire.Seeds{1, 2, 3}}, &advice), wire.CodeBadShape)
	requireCode(t, b.Call(wire.Request{Op: wire.OpBotActions, Handle: madeB.Handle, Bot: "mcts:0"}, &advice),
		wire.CodeBadOption)
	var after wire.StatesReply
	require.NoError(t, b.Call(wire.Request{Op: wire.OpGetState, Handle: madeB.Handle}, &after))
	require.Equal(t, saved.States, after.States, "a refused set_state and bot advice change nothing")
}

// max_search_iterations bounds the mcts iterations of one request: a
// bot_actions over the envs it asks, a step of a batch whose vs-bots seats
// search (refused when it is made); the message says what to lower, and a
// refused request changes nothing.
func TestSearchBudget(t *testing.T) {
	cfg := testConfig()
	cfg.MaxSearchIterations = 1000
	_, url := start(t, cfg)
	c := dial(t, url)
	made, _ := makeBatch(t, c, 16, nil)
	var advice wire.ActionsReply
	require.NoError(t, c.Call(wire.Request{Op: wire.OpBotActions, Handle: made.Handle, Bot: "mcts:100",
		EnvIDs: wire.EnvIDs{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, Seed: seed(1)}, &advice), "10 × 100 is within 1000")
	werr := requireCode(t, c.Call(wire.Request{Op: wire.OpBotActions, Handle: made.Handle, Bot: "mcts:100",
		Seed: seed(1)}, &advice), wire.CodeLimit)
	require.Contains(t, werr.Message, "1600 mcts iterations, more than max_search_iterations 1000: ask for fewer envs")
	require.NoError(t, c.Call(wire.Request{Op: wire.OpBotActions, Handle: made.Handle, Bot: "greedy", Seed: seed(1)},
		&advice), "no search, no budget")

	var vsBots wire.MakeReply
	opts := map[string]any{"mode": "vs_bots", "bots": "mcts:300"}
	werr = requireCode(t, c.Call(wire.Request{Op: wire.OpMake, Env: "splendor-v1", NumEnvs: 4, Options: opts},
		&vsBots), wire.CodeLimit)
	require.Contains(t, werr.Message, "a step of 4 envs whose bots search may run 1200 mcts iterations", "the bot's seat, not the client's")
	require.NoError(t, c.Call(wire.Request{Op: wire.OpMake, Env: "splendor-v1", NumEnvs: 3, Options: opts}, &vsBots))
}

// A client that disconnects while its search runs stops it at once, the
// bots' advice and a vs-bots batch's bots alike: the cores are not held
// for searches no one will read (64 searches of 20,000 iterations are about
// 15 s of two cores). Measured in work (untilCutShort).
func TestDisconnectStopsSearches(t *testing.T) {
	heavy := fmt.Sprintf("mcts:%d", heavyIterations)
	for name, search := range map[string]func(c *Client) error{
		"bot_actions": func(c *Client) error {
			made, _ := makeBatch(t, c, 64, nil)
			_, err := c.Send(wire.Request{Op: wire.OpBotActions, Handle: made.Handle, Bot: heavy, Seed: seed(1)})
			return err
		},
		"the bots' turns": func(c *Client) error {
			var made wire.MakeReply
			require.NoError(t, c.Call(wire.Request{Op: wire.OpMake, Env: "splendor-v1", NumEnvs: 64,
				Options: map[string]any{"mode": "vs_bots", "seat": 1, "bots": heavy}}, &made))
			_, err := c.Send(wire.Request{Op: wire.OpReset, Handle: made.Handle}) // seat 0's bot plays first
			return err
		},
	} {
		srv, url := start(t, testConfig())
		c := dial(t, url)
		before := searchIterations(t, srv)
		require.NoError(t, search(c), name)
		waitUntil(t, func() bool { return searchIterations(t, srv) > before }, "%s: a search runs", name)
		left := searchIterations(t, srv)
		require.NoError(t, c.Close())
		untilCutShort(t, srv, left, func() bool { return srv.connections() == 0 },
			"%s: the connection ends once its search stops", name)
	}
}

// A close of the batch sent while its search runs stops the search at once:
// the search's reply says it was cut short, then the close is answered.
// Measured in work (untilCutShort).
func TestClosingABatchStopsItsSearches(t *testing.T) {
	srv, url := start(t, testConfig())
	c := dial(t, url)
	made, _ := makeBatch(t, c, 64, nil)
	before := searchIterations(t, srv)
	_, err := c.Send(wire.Request{Op: wire.OpBotActions, Handle: made.Handle, Bot: fmt.Sprintf("mcts:%d", heavyIterations),
		Seed: seed(1)})
	require.NoError(t, err)
	waitUntil(t, func() bool { return searchIterations(t, srv) > before }, "a search runs")
	closing := searchIterations(t, srv)
	_, err = c.Send(wire.Request{Op: wire.OpClose, Handle: made.Handle})
	require.NoError(t, err)
	type replies struct {
		search, close error
		closed        wire.CloseReply
	}
	got := make(chan replies, 1)
	go func() {
		var r replies
		r.search = c.Recv(&wire.ActionsReply{})
		r.close = c.Recv(&r.closed)
		got <- r
	}()
	var r replies
	untilCutShort(t, srv, closing, func() bool {
		select {
		case r = <-got:
			return true
		default:
			return false
		}
	}, "the search's reply and the close's come")
	requireCode(t, r.search, wire.CodeUnknownHandle)
	require.NoError(t, r.close)
	require.True(t, r.closed.Closed)
}

// heavyIterations is the iterations of the searches a test cuts short: 64
// of them are about 15 s of two cores, a single one about a quarter of a
// second.
const heavyIterations = 20000

// cutShortBound is how many iterations searches may run once their client
// has left or closed their batch (from the moment it did): the 32 that a
// running search finishes before its next look at stop, and what it runs
// while the server notices (at a low priority: little on a busy machine,
// a few milliseconds of a core on an idle one). A search that did not look
// at stop would finish its heavyIterations; the request, 64 of them.
const cutShortBound = heavyIterations / 4

// untilCutShort waits until over holds, failing as soon as the searches
// have run more than cutShortBound iterations since from, and checks that
// none runs afterwards (a search starts and ends within its request). A
// test of Stop measures work, not time: searches run at a low priority and
// crawl on a busy machine.
func untilCutShort(t *testing.T, srv *Server, from float64, over func() bool, format string, args ...any) {
	t.Helper()
	since := func() float64 { return searchIterations(t, srv) - from }
	waitUntil(t, func() bool {
		require.LessOrEqual(t, since(), float64(cutShortBound), "iterations after the client stopped the search")
		return over()
	}, format, args...)
	settled := since()
	time.Sleep(300 * time.Millisecond)
	require.Equal(t, settled, since(), "no search runs afterwards")
	require.LessOrEqual(t, settled, float64(cutShortBound), "iterations after the client stopped the search")
	t.Logf("%s: %v iterations after the client stopped the search", fmt.Sprintf(format, args...), settled)
}

// searchIterations is the mcts iterations of every search in the process,
// counted while they run (no test of the package searches in parallel with
// another).
func searchIterations(t *testing.T, srv *Server) float64 {
	return counterValue(t, srv, "splendor_search_iterations_total", "")
}

// waitUntil polls ready until it holds. Its limit of minutes only catches
// a hang: what a test waits for may take seconds on a busy machine.
func waitUntil(t *testing.T, ready func() bool, format string, args ...any) {
	t.Helper()
	for limit := time.Now().Add(3 * time.Minute); !ready(); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(limit) {
			t.Fatalf("not within 3 minutes: "+format, args...)
		}
	}
}
