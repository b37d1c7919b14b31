package server

import (
	"context"
	"testing"
	"time"

	"github.com/splendor-rl/splendor/encoding/wire"
	"github.com/stretchr/testify/require"
)

// The work these tests measure: a search of 64 envs of mcts:20000 is 1.28
// million iterations (15 s of two idle cores, minutes of a loaded one); one
// cut short runs a few envs' worth at most, whatever the machine's load.
const (
	heavyBot   = "mcts:20000"
	heavyEnvs  = 64
	heavyTotal = heavyEnvs * 20000
)

// iterations is the mcts iterations the process has run.
func iterations(t *testing.T, srv *Server) float64 {
	return counterValue(t, srv, "splendor_search_iterations_total", "")
}

// pipeline sends n hellos without reading their replies.
func pipeline(t *testing.T, c *Client, n int) {
	for range n {
		_, err := c.Send(wire.Request{Op: wire.OpHello})
		require.NoError(t, err)
	}
}

// requireCutShort waits until the server's searches have settled and
// checks that they ran a small part of what was asked.
func requireCutShort(t *testing.T, srv *Server, before float64, what string) {
	t.Helper()
	var settled float64
	require.Eventually(t, func() bool {
		now := iterations(t, srv)
		done := now == settled
		settled = now
		return done
	}, time.Minute, 300*time.Millisecond, "%s: the searches settle", what)
	require.Less(t, settled-before, float64(heavyTotal)/4, "%s: the search was cut short", what)
}

// A client that leaves while its search runs stops it, however many
// requests it pipelined behind the search: the bots' advice, a vs-bots
// batch's bots and a search that plays out its leaves alike.
func TestADisconnectBehindPipelinedRequestsStopsTheSearch(t *testing.T) {
	for name, search := range map[string]func(c *Client){
		"bot_actions": func(c *Client) {
			made, _ := makeBatch(t, c, heavyEnvs, nil)
			_, err := c.Send(wire.Request{Op: wire.OpBotActions, Handle: made.Handle, Bot: heavyBot, Seed: seed(1)})
			require.NoError(t, err)
		},
		"the bots' turns": func(c *Client) {
			var made wire.MakeReply
			require.NoError(t, c.Call(wire.Request{Op: wire.OpMake, Env: "splendor-v1", NumEnvs: heavyEnvs,
				Options: map[string]any{"mode": "vs_bots", "seat": 1, "bots": heavyBot}}, &made))
			_, err := c.Send(wire.Request{Op: wire.OpReset, Handle: made.Handle}) // seat 0's bot plays first
			require.NoError(t, err)
		},
	} {
		srv, url := start(t, testConfig())
		c := dial(t, url)
		before := iterations(t, srv)
		search(c)
		pipeline(t, c, 200)
		time.Sleep(100 * time.Millisecond)
		require.NoError(t, c.ws.Close()) // gone without a word
		require.Eventually(t, func() bool { return srv.connections() == 0 }, time.Minute, 10*time.Millisecond,
			"%s: the connection ends once its search stops", name)
		requireCutShort(t, srv, before, name)
	}
}

// The same for a search over the wire that plays out its own leaves: 256
// envs of 4096 simulations run for over a minute to their end; cut short,
// the connection ends within seconds even on a loaded machine.
func TestADisconnectBehindPipelinedRequestsStopsAPlayoutSearch(t *testing.T) {
	srv, url := start(t, testConfig())
	c := dial(t, url)
	made, _ := makeBatch(t, c, 256, nil)
	_, err := c.Send(wire.Request{Op: wire.OpSearch, Handle: made.Handle, Seed: seed(1),
		Settings: map[string]any{"playouts": true, "simulations": 4096}})
	require.NoError(t, err)
	pipeline(t, c, 200)
	time.Sleep(100 * time.Millisecond)
	require.NoError(t, c.ws.Close())
	require.Eventually(t, func() bool { return srv.connections() == 0 }, 20*time.Second, 10*time.Millisecond,
		"the connection ends once its search stops")
}

// A close of the searching batch stops its search even behind other
// requests, and so does a close already read when a search starts: every
// request is still answered, in order.
func TestACloseBehindPipelinedRequestsStopsTheSearch(t *testing.T) {
	srv, url := start(t, testConfig())
	c := dial(t, url)
	first, _ := makeBatch(t, c, heavyEnvs, nil)
	second, _ := makeBatch(t, c, heavyEnvs, nil)
	before := iterations(t, srv)
	for _, req := range []wire.Request{
		{Op: wire.OpBotActions, Handle: first.Handle, Bot: heavyBot, Seed: seed(1)},
		{Op: wire.OpBotActions, Handle: second.Handle, Bot: heavyBot, Seed: seed(1)},
		{Op: wire.OpClose, Handle: second.Handle}, // read while the first search runs
	} {
		_, err := c.Send(req)
		require.NoError(t, err)
	}
	pipeline(t, c, 100)
	_, err := c.Send(wire.Request{Op: wire.OpClose, Handle: first.Handle})
	require.NoError(t, err)
	requireCode(t, c.Recv(&wire.ActionsReply{}), wire.CodeUnknownHandle)
	requireCode(t, c.Recv(&wire.ActionsReply{}), wire.CodeUnknownHandle)
	var closed wire.CloseReply
	require.NoError(t, c.Recv(&closed))
	for range 100 {
		require.NoError(t, c.Recv(&wire.HelloReply{}))
	}
	require.NoError(t, c.Recv(&closed))
	require.True(t, closed.Closed)
	requireCutShort(t, srv, before, "two searches")
}

// While a search runs behind which the client pipelined a request, the
// client's pings are still answered: a client library that closes
// connections whose pings go unanswered keeps its connection.
func TestPingsAreAnsweredWhileASearchRuns(t *testing.T) {
	_, url := start(t, testConfig())
	c := dial(t, url)
	made, _ := makeBatch(t, c, heavyEnvs, nil)
	_, err := c.Send(wire.Request{Op: wire.OpBotActions, Handle: made.Handle, Bot: heavyBot, Seed: seed(1)})
	require.NoError(t, err)
	pipeline(t, c, 1)
	pong, replies := make(chan struct{}, 1), make(chan [3]error, 1)
	c.ws.SetPongHandler(func(string) error { pong <- struct{}{}; return nil })
	go func() { // a client reads control frames while it waits for replies
		cut := c.Recv(&wire.ActionsReply{})
		replies <- [3]error{cut, c.Recv(&wire.HelloReply{}), c.Recv(&wire.CloseReply{})}
	}()
	require.NoError(t, c.ws.WriteControl(9, []byte("are you there"), time.Now().Add(time.Second)))
	select {
	case <-pong:
	case <-time.After(30 * time.Second): // the search alone runs for minutes on a loaded machine
		t.Fatal("no pong while the search runs")
	}
	_, err = c.Send(wire.Request{Op: wire.OpClose, Handle: made.Handle})
	require.NoError(t, err)
	got := <-replies
	requireCode(t, got[0], wire.CodeUnknownHandle) // cut short by the close
	require.NoError(t, got[1])
	require.NoError(t, got[2])
}

// Shutdown's grace ends searches still running: it returns at the end of
// the grace without waiting for them, and they stop.
func TestShutdownCutsRunningSearches(t *testing.T) {
	cfg := testConfig()
	srv, url := start(t, cfg)
	c := dial(t, url)
	made, _ := makeBatch(t, c, heavyEnvs, nil)
	before := iterations(t, srv)
	_, err := c.Send(wire.Request{Op: wire.OpBotActions, Handle: made.Handle, Bot: heavyBot, Seed: seed(1)})
	require.NoError(t, err)
	time.Sleep(100 * time.Millisecond)
	done := make(chan error, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
		defer cancel()
		done <- srv.Shutdown(ctx)
	}()
	select {
	case err := <-done:
		require.NoError(t, err)
	case <-time.After(time.Minute):
		t.Fatal("Shutdown waits for the search")
	}
	requireCutShort(t, srv, before, "a search at shutdown")
}
