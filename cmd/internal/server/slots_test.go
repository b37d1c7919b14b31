package server

import (
	"bufio"
	"context"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"github.com/splendor-rl/splendor/encoding/wire"
	"github.com/stretchr/testify/require"
)

// strangerKinds are sockets that are not an upgraded, authenticated
// WebSocket: each holds its socket until the server closes it, then
// comes back at once.
var strangerKinds = map[string]func(ctx context.Context, addr string) (net.Conn, error){
	// a keep-alive HTTP connection left idle after one request
	"idle keep-alive": func(ctx context.Context, addr string) (net.Conn, error) {
		c, err := dialUntil(ctx, addr)
		if err != nil {
			return nil, err
		}
		_, err = c.Write([]byte("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"))
		if err == nil {
			_, err = http.ReadResponse(bufio.NewReader(c), nil)
		}
		return c, err
	},
	// an upgrade whose header never ends
	"unfinished upgrade": func(ctx context.Context, addr string) (net.Conn, error) {
		c, err := dialUntil(ctx, addr)
		if err == nil {
			_, err = c.Write([]byte("GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"))
		}
		return c, err
	},
	// a WebSocket that never says hello to a server with a token
	"no hello": func(ctx context.Context, addr string) (net.Conn, error) {
		ws, _, err := websocket.DefaultDialer.DialContext(ctx, "ws://"+addr+"/ws", nil)
		if err != nil {
			return nil, err
		}
		return ws.NetConn(), nil
	},
}

// dialUntil dials addr; the socket is closed when ctx ends, even while it
// waits in the server's accept queue.
func dialUntil(ctx context.Context, addr string) (net.Conn, error) {
	c, err := (&net.Dialer{}).DialContext(ctx, "tcp", addr)
	if err == nil {
		context.AfterFunc(ctx, func() { c.Close() })
	}
	return c, err
}

// strangers keeps n sockets of each kind open against addr until ctx ends,
// reopening each as soon as the server drops it.
func strangers(ctx context.Context, addr string, n int) *sync.WaitGroup {
	var wg sync.WaitGroup
	for _, open := range strangerKinds {
		for range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for ctx.Err() == nil {
					c, err := open(ctx, addr)
					if err != nil {
						select {
						case <-ctx.Done():
						case <-time.After(10 * time.Millisecond):
						}
						continue
					}
					stop := context.AfterFunc(ctx, func() { c.Close() })
					_, _ = c.Read(make([]byte, 512)) // until the server closes it (or answers a 408)
					c.Close()
					stop()
				}
			}()
		}
	}
	return &wg
}

// Sockets that are not an upgraded, authenticated WebSocket — idle
// keep-alive connections, unfinished upgrades, WebSockets that never say
// hello — cannot keep a client out: with 1,000 of them, reopened as soon as
// they are dropped, from one process, every client still gets in, each
// after a wait of at most a few of the strangers' grace periods.
func TestStrangersCannotKeepClientsOut(t *testing.T) {
	cfg := testConfig()
	cfg.MaxConnections = 64
	cfg.Token = "s3cret"
	cfg.HelloTimeout = 5 * time.Second
	cfg.HandshakeTimeout = 5 * time.Second
	srv, url := startWithGrace(t, cfg, 100*time.Millisecond)
	addr := strings.TrimSuffix(strings.TrimPrefix(url, "ws://"), "/ws")
	ctx, cancel := context.WithCancel(context.Background())
	wg := strangers(ctx, addr, 334) // 1,002 sockets
	defer func() { cancel(); wg.Wait() }()
	require.Eventually(t, func() bool { return srv.strangersHeld() >= cfg.MaxConnections+httpSpare-2 },
		10*time.Second, 10*time.Millisecond, "the strangers fill every slot")

	var waits []time.Duration
	for range 3 {
		began := time.Now()
		var c *Client
		require.Eventually(t, func() bool {
			var err error
			c, err = Dial(url)
			return err == nil
		}, 20*time.Second, time.Millisecond, "a client gets in")
		require.NoError(t, c.Call(wire.Request{Op: wire.OpHello, Token: cfg.Token}, &wire.HelloReply{}))
		waits = append(waits, time.Since(began))
		defer c.Close()
	}
	t.Logf("a client waited %v with 1,002 strangers and %d slots", waits, cfg.MaxConnections+httpSpare)
}
