package server

import (
	"bytes"
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"github.com/splendor-rl/splendor/encoding/wire"
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
	requireCode(t, c.Call(wire.Request{Op: wire.OpHello, Token: "guess"}, &wire.HelloReply{}), wire.CodeUnauthorized)
	require.NoError(t, c.Call(wire.Request{Op: wire.OpHello, Token: "s3cret"}, &wire.HelloReply{}))
	require.NoError(t, c.Call(wire.Request{Op: wire.OpMake, Env: "splendor-v1", NumEnvs: 1}, &wire.MakeReply{}))
}

func TestIdleConnectionIsClosedAndFreed(t *testing.T) {
	cfg := testConfig()
	cfg.IdleTimeout = 200 * time.Millisecond
	srv, url := start(t, cfg)
	c := dial(t, url)
	makeBatch(t, c, 10, nil)
	err := c.Recv(&wire.HelloReply{}) // nothing to read: waits for the close
	require.True(t, websocket.IsCloseError(err, websocket.CloseNormalClosure), "got %v", err)
	require.Eventually(t, func() bool { return srv.envs.Load() == 0 }, 2*time.Second, 10*time.Millisecond)
}

func TestServerPings(t *testing.T) {
	cfg := testConfig()
	cfg.PingInterval = 50 * time.Millisecond
	_, url := start(t, cfg)
	c := dial(t, url)
	pinged := make(chan struct{}, 1)
	c.ws.SetPingHandler(func(string) error {
		select {
		case pinged <- struct{}{}:
		default:
		}
		return nil
	})
	go func() { _ = c.Recv(&wire.HelloReply{}) }() // control frames are handled while reading
	select {
	case <-pinged:
	case <-time.After(2 * time.Second):
		t.Fatal("no ping within 2s")
	}
}

func TestSameStepAndFloat32Replies(t *testing.T) {
	_, url := start(t, testConfig())
	c := dial(t, url)
	made, first := makeBatch(t, c, 2, map[string]any{"autoreset": "same_step", "obs_dtype": "float32"})
	require.Equal(t, "same_step", made.Spec.Autoreset)
	require.Equal(t, "float32", first.Obs.Dtype)
	require.Len(t, first.Obs.Data, 2*423*4)
	require.NotNil(t, first.Ended)
	require.NotNil(t, first.FinalObs)
	require.Equal(t, []int{2, 423}, first.FinalObs.Shape)
}

// Shutdown lets the request in flight finish and be answered, then closes
// with "going away".
func TestShutdownDrains(t *testing.T) {
	srv, url := start(t, testConfig())
	c := dial(t, url)
	made, first := makeBatch(t, c, 200, nil)
	_, err := c.Send(wire.Request{Op: wire.OpStep, Handle: made.Handle, Actions: ptr(firstLegal(first.Mask))})
	require.NoError(t, err)
	time.Sleep(20 * time.Millisecond) // let the server read it
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
