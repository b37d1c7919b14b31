package main

import (
	"bufio"
	"os/exec"
	"path/filepath"
	"regexp"
	"syscall"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"github.com/splendor-rl/splendor/cmd/internal/server"
	"github.com/splendor-rl/splendor/encoding/wire"
	"github.com/stretchr/testify/require"
)

// The real binary, sent SIGTERM while a client is mid-session, answers what
// it was asked, says "going away" and exits cleanly.
func TestSIGTERMDrains(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "splendor-server")
	build := exec.Command("go", "build", "-o", bin, ".")
	out, err := build.CombinedOutput()
	require.NoError(t, err, string(out))

	cmd := exec.Command(bin, "--config", shippedConfig, "--listen", "127.0.0.1:0")
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	lines := bufio.NewScanner(stdout)
	require.True(t, lines.Scan())
	url := regexp.MustCompile(`ws://\S+/ws`).FindString(lines.Text())
	require.NotEmpty(t, url, lines.Text())
	go func() {
		for lines.Scan() { // keep draining stdout so the server never blocks on it
		}
	}()

	c, err := server.Dial(url)
	require.NoError(t, err)
	defer c.Close()
	var made wire.MakeReply
	require.NoError(t, c.Call(wire.Request{Op: wire.OpMake, Env: "splendor-v1", NumEnvs: 64}, &made))
	_, err = c.Send(wire.Request{Op: wire.OpReset, Handle: made.Handle})
	require.NoError(t, err)
	require.NoError(t, cmd.Process.Signal(syscall.SIGTERM))

	var reset wire.BatchReply
	require.NoError(t, c.Recv(&reset), "the request sent before SIGTERM is answered")
	require.Equal(t, 64, reset.Obs.Shape[0])
	err = c.Recv(&reset)
	require.True(t, websocket.IsCloseError(err, websocket.CloseGoingAway), "got %v", err)

	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	select {
	case err := <-exited:
		require.NoError(t, err, "exit status after a drain")
	case <-time.After(10 * time.Second):
		t.Fatal("server still running 10s after SIGTERM")
	}
}
