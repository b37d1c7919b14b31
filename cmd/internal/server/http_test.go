package server

import (
	"bufio"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"github.com/splendor-rl/splendor/encoding/wire"
	"github.com/stretchr/testify/require"
)

func dialRaw(url string, header http.Header) (*websocket.Conn, *http.Response, error) {
	ws, resp, err := websocket.DefaultDialer.Dial(url, header)
	if err == nil {
		ws.Close()
	}
	return ws, resp, err
}

// A page whose name was rebound to this machine sends its own name as Host
// (and Origin): refused. Loopback names, IP addresses and the configured
// names are served.
func TestHostMustBeKnown(t *testing.T) {
	cfg := testConfig()
	cfg.AllowedHosts = []string{"envs.example"}
	_, url := start(t, cfg)
	port := url[strings.LastIndex(url, ":")+1 : strings.LastIndex(url, "/")]
	_, resp, err := dialRaw(url, http.Header{"Host": {"attacker.example:" + port}, "Origin": {"http://attacker.example:" + port}})
	require.Error(t, err)
	require.Equal(t, http.StatusMisdirectedRequest, resp.StatusCode)
	for _, host := range []string{"localhost:" + port, "127.0.0.1:" + port, "[::1]:" + port, "envs.example:" + port} {
		_, _, err := dialRaw(url, http.Header{"Host": {host}})
		require.NoError(t, err, host)
	}
	_, resp, err = dialRaw(url, http.Header{"Origin": {"http://attacker.example"}})
	require.Error(t, err, "a cross-origin page is refused")
	require.Equal(t, http.StatusForbidden, resp.StatusCode)
}

// Health, metrics and the viewer's page answer GET and HEAD only.
func TestHTTPEndpointsAreReadOnly(t *testing.T) {
	_, url := start(t, testConfig())
	for _, path := range []string{"/healthz", "/metrics", "/"} {
		resp, err := http.Post(httpURL(url, path), "text/plain", strings.NewReader("x"))
		require.NoError(t, err)
		resp.Body.Close()
		require.Equal(t, http.StatusMethodNotAllowed, resp.StatusCode, path)
		resp, err = http.Head(httpURL(url, path))
		require.NoError(t, err)
		resp.Body.Close()
		require.Equal(t, http.StatusOK, resp.StatusCode, path)
	}
}

// The viewer's page is served at /, but its directories are not listed.
func TestViewerDirectoriesAreNotListed(t *testing.T) {
	_, url := start(t, testConfig())
	for path, want := range map[string]int{"/": http.StatusOK, "/js/app.js": http.StatusOK, "/js/": http.StatusNotFound} {
		resp, err := http.Get(httpURL(url, path))
		require.NoError(t, err)
		resp.Body.Close()
		require.Equal(t, want, resp.StatusCode, path)
	}
}

// Half-sent requests count from the moment they are accepted; when they
// hold every slot, a newcomer waits until the oldest has had its grace and
// takes its slot (the stranger is closed), and the rest are closed after the
// handshake timeout.
func TestHalfSentRequestsAreCountedAndGiveWay(t *testing.T) {
	cfg := testConfig()
	cfg.MaxConnections = 2
	// The half-sent requests are held from their accept until this timeout: every one of them must be accepted
	// and seen held within it, a few milliseconds' work that a busy machine may stretch to a hundred.
	cfg.HandshakeTimeout = time.Second
	srv, url := startWithGrace(t, cfg, 100*time.Millisecond)
	addr := strings.TrimSuffix(strings.TrimPrefix(url, "ws://"), "/ws")
	var stalled []net.Conn
	for range cfg.MaxConnections + httpSpare {
		c, err := net.Dial("tcp", addr)
		require.NoError(t, err)
		_, err = c.Write([]byte("GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\n"))
		require.NoError(t, err)
		stalled = append(stalled, c)
	}
	require.Eventually(t, func() bool { return srv.strangersHeld() == cfg.MaxConnections+httpSpare },
		cfg.HandshakeTimeout, 5*time.Millisecond, "the half-sent requests hold every slot")
	c := dial(t, url) // waits for the oldest to have had its grace, then takes its slot
	require.NoError(t, c.Call(wire.Request{Op: wire.OpHello}, &wire.HelloReply{}))
	for _, c := range stalled {
		// Closed for the newcomer, or answered 408 at the timeout; the deadline only catches a hang.
		_ = c.SetReadDeadline(time.Now().Add(10 * cfg.HandshakeTimeout))
		_, err := bufio.NewReader(c).ReadString('\n')
		_ = err
		c.Close()
	}
	waitUntil(t, func() bool { return srv.strangersHeld() == 0 }, "every half-sent request is let go")
}

// When every WebSocket slot is taken, an upgrade is refused with 503 and
// health checks still answer.
func TestHealthAnswersWhenConnectionsAreFull(t *testing.T) {
	cfg := testConfig()
	cfg.MaxConnections = 1
	_, url := start(t, cfg)
	c := dial(t, url)
	require.NoError(t, c.Call(wire.Request{Op: wire.OpHello}, &wire.HelloReply{}))
	_, resp, err := dialRaw(url, nil)
	require.Error(t, err)
	require.Equal(t, http.StatusServiceUnavailable, resp.StatusCode)
	require.Equal(t, "ok", health(t, url).Status)
}
