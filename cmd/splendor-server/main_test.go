package main

import (
	"bufio"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"github.com/splendor-rl/splendor/cmd/internal/server"
	"github.com/splendor-rl/splendor/encoding/wire"
	"github.com/splendor-rl/splendor/internal/nettest"
	"github.com/stretchr/testify/require"
)

var buildOnce = sync.OnceValues(func() (string, error) {
	dir, err := filepath.Abs(filepath.Join("..", "..", "bin", "test"))
	if err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "splendor-server")
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	if err != nil {
		return "", &exec.ExitError{Stderr: out}
	}
	return bin, nil
})

// startBinary runs the real server with args and returns it with its
// /ws URL and the rest of its stdout.
func startBinary(t *testing.T, args ...string) (*exec.Cmd, string, <-chan string) {
	t.Helper()
	bin, err := buildOnce()
	require.NoError(t, err)
	cmd := exec.Command(bin, append([]string{"--config", shippedConfig, "--listen", "127.0.0.1:0"}, args...)...)
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	url, rest := startAndReadURL(t, cmd, stdout)
	return cmd, url, drainLines(rest)
}

// startAndReadURL starts cmd and reads its first line; rest reads on from
// there.
func startAndReadURL(t *testing.T, cmd *exec.Cmd, stdout io.Reader) (url string, rest io.Reader) {
	t.Helper()
	require.NoError(t, cmd.Start())
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	lines := bufio.NewReader(stdout)
	first, err := lines.ReadString('\n')
	require.NoError(t, err)
	url = regexp.MustCompile(`ws://\S+/ws`).FindString(first)
	require.NotEmpty(t, url, first)
	return url, lines
}

// drainLines keeps reading stdout, so that the server never blocks on it.
func drainLines(stdout io.Reader) <-chan string {
	lines := make(chan string, 100)
	go func() {
		s := bufio.NewScanner(stdout)
		for s.Scan() {
			select {
			case lines <- s.Text():
			default:
			}
		}
	}()
	return lines
}

func requireExit(t *testing.T, cmd *exec.Cmd, within time.Duration) {
	t.Helper()
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	select {
	case err := <-exited:
		require.NoError(t, err, "exit status")
	case <-time.After(within):
		t.Fatalf("server still running %s later", within)
	}
}

// SIGTERM while clients step without pause: every client gets its replies
// and then "going away", and the server exits 0 well within the grace (the
// drain is a few resets of 64 envs: milliseconds, under a second on a busy
// machine; a server that waited for its grace would take half a minute).
func TestSIGTERMUnderLoadDrainsAndExitsZero(t *testing.T) {
	const grace = 30 * time.Second
	cmd, url, _ := startBinary(t, "--shutdown-grace", grace.String())
	const clients = 3
	ended := make(chan error, clients)
	for range clients {
		c, err := server.Dial(url)
		require.NoError(t, err)
		t.Cleanup(func() { c.Close() })
		var made wire.MakeReply
		require.NoError(t, c.Call(wire.Request{Op: wire.OpMake, Env: "splendor-v1", NumEnvs: 64}, &made))
		go func() { ended <- resetWithoutPause(c, made.Handle) }()
	}
	time.Sleep(200 * time.Millisecond)
	began := time.Now()
	require.NoError(t, cmd.Process.Signal(syscall.SIGTERM))
	for range clients {
		err := <-ended
		require.True(t, websocket.IsCloseError(err, websocket.CloseGoingAway), "got %v", err)
	}
	requireExit(t, cmd, grace)
	require.Less(t, time.Since(began), grace/3)
}

// SIGTERM while a search of the largest size max_search_iterations allows
// runs (1,024 envs of mcts:4096: 80 core-seconds, 40 s of two idle cores):
// the grace's end stops it and the process exits (the time allowed is for
// a loaded machine; on an idle one it exits within the grace and a few
// milliseconds).
func TestSIGTERMStopsASearchAtTheBudget(t *testing.T) {
	cmd, url, _ := startBinary(t, "--shutdown-grace", "1s")
	c, err := server.Dial(url)
	require.NoError(t, err)
	t.Cleanup(func() { c.Close() })
	var made wire.MakeReply
	require.NoError(t, c.Call(wire.Request{Op: wire.OpMake, Env: "splendor-v1", NumEnvs: 1024}, &made))
	require.NoError(t, c.Call(wire.Request{Op: wire.OpReset, Handle: made.Handle}, &wire.BatchReply{}))
	_, err = c.Send(wire.Request{Op: wire.OpBotActions, Handle: made.Handle, Bot: "mcts:4096"})
	require.NoError(t, err)
	time.Sleep(200 * time.Millisecond)
	began := time.Now()
	require.NoError(t, cmd.Process.Signal(syscall.SIGTERM))
	requireExit(t, cmd, 15*time.Second)
	t.Logf("exited %v after SIGTERM, with a 1 s grace", time.Since(began))
}

// resetWithoutPause keeps two resets in flight until the connection ends.
func resetWithoutPause(c *server.Client, handle uint64) error {
	reset := wire.Request{Op: wire.OpReset, Handle: handle}
	if _, err := c.Send(reset); err != nil {
		return err
	}
	for {
		_, _ = c.Send(reset) // after the server stops reading, sends may fail; replies still come
		var r wire.BatchReply
		if err := c.Recv(&r); err != nil {
			return err
		}
	}
}

// --exit-on-stdin-close: a parent that dies (its end of the pipe closes)
// takes the server with it.
func TestExitOnStdinClose(t *testing.T) {
	bin, err := buildOnce()
	require.NoError(t, err)
	cmd := exec.Command(bin, "--config", shippedConfig, "--listen", "127.0.0.1:0", "--exit-on-stdin-close")
	stdin, err := cmd.StdinPipe()
	require.NoError(t, err)
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	url, rest := startAndReadURL(t, cmd, stdout)
	drainLines(rest)
	c, err := server.Dial(url)
	require.NoError(t, err)
	defer c.Close()
	require.NoError(t, c.Call(wire.Request{Op: wire.OpHello}, &wire.HelloReply{}))
	require.NoError(t, stdin.Close())
	requireExit(t, cmd, 5*time.Second)
}

// pprof is served only when asked, on its own loopback address.
func TestProfilingIsOptIn(t *testing.T) {
	_, url, lines := startBinary(t, "--pprof-listen", "127.0.0.1:0")
	var pprofURL string
	for pprofURL == "" {
		select {
		case line := <-lines:
			pprofURL = regexp.MustCompile(`http://\S+/debug/pprof/`).FindString(line)
		case <-time.After(5 * time.Second):
			t.Fatal("no pprof line")
		}
	}
	resp, err := http.Get(pprofURL)
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	resp, err = http.Get(regexp.MustCompile(`/ws$`).ReplaceAllString(regexp.MustCompile(`^ws`).ReplaceAllString(url, "http"), "/debug/pprof/"))
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, http.StatusNotFound, resp.StatusCode, "not on the clients' port")
}

// The real binary answers --help and --version with status 0 on stdout, and
// a bad command line with status 2.
func TestHelpVersionAndUsageExitCodes(t *testing.T) {
	bin, err := buildOnce()
	require.NoError(t, err)
	out, err := exec.Command(bin, "--help").Output()
	require.NoError(t, err)
	require.Contains(t, string(out), "--ping-interval duration")
	out, err = exec.Command(bin, "--version").Output()
	require.NoError(t, err)
	require.Equal(t, "splendor-server "+version+"\n", string(out))
	err = exec.Command(bin, "--max-connections", "many").Run()
	var exit *exec.ExitError
	require.ErrorAs(t, err, &exit)
	require.Equal(t, 2, exit.ExitCode())
}

// A baseline network that cannot be played as its name says stops the
// server at start, exit status 1, with one line naming the file.
func TestABadBaselineStopsTheServerAtStart(t *testing.T) {
	bin, err := buildOnce()
	require.NoError(t, err)
	dir := t.TempDir()
	path := filepath.Join(dir, "splendor-v1-2p.safetensors")
	require.NoError(t, os.WriteFile(path, nettest.RandomNet(1, 10, 5, 8, 1).Bytes()[:60], 0o644))
	for _, args := range [][]string{{"--baselines", dir}, {"--baselines", filepath.Join(dir, "missing")}} {
		out, err := exec.Command(bin, append([]string{"--config", shippedConfig, "--listen", "127.0.0.1:0"}, args...)...).CombinedOutput()
		var exit *exec.ExitError
		require.ErrorAs(t, err, &exit, "%v: %s", args, out)
		require.Equal(t, 1, exit.ExitCode())
		line := strings.TrimSuffix(string(out), "\n")
		require.NotContains(t, line, "\n", "more than one line")
		require.True(t, strings.HasPrefix(line, "splendor-server: baselines: "), line)
		require.Contains(t, line, args[1], "the file or directory is named")
	}
}
