package server

import (
	"net"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/splendor-rl/splendor/env"
	"github.com/splendor-rl/splendor/env/nets"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Linux: the cases make named pipes and sockets and read /proc.

// A baselines entry that is not a regular file of at most nets.MaxFileSize
// bytes is refused before it is read, in one line naming it, and at once:
// opening a named pipe would wait for a writer, and reading /dev/zero or a
// sparse file of gigabytes whole would exhaust memory before any check.
func TestLoadBaselinesRefusesOddFilesUnread(t *testing.T) {
	const name = "splendor-v1-2p.safetensors"
	link := func(target string) func(t *testing.T, path string) {
		return func(t *testing.T, path string) { require.NoError(t, os.Symlink(target, path)) }
	}
	sparse := func(size int64) func(t *testing.T, path string) {
		return func(t *testing.T, path string) {
			require.NoError(t, os.WriteFile(path, nil, 0o644))
			require.NoError(t, os.Truncate(path, size))
		}
	}
	parent := t.TempDir() // short, for the socket's path
	for i, c := range []struct {
		what string
		make func(t *testing.T, path string)
		want string
	}{
		{"named pipe", func(t *testing.T, path string) { require.NoError(t, syscall.Mkfifo(path, 0o644)) },
			"a named pipe (FIFO), not a regular file"},
		{"link to /dev/zero", link("/dev/zero"), "a character device, not a regular file"},
		{"socket", func(t *testing.T, path string) {
			l, err := net.Listen("unix", path)
			require.NoError(t, err)
			t.Cleanup(func() { l.Close() })
		}, "a socket, not a regular file"},
		{"sparse 6 GiB", sparse(6 << 30), "6442450944 bytes, more than the 67108864 a network file may have"},
		{"a byte over the bound", sparse(nets.MaxFileSize + 1), "67108865 bytes, more than the 67108864"},
		{"link to itself", func(t *testing.T, path string) { require.NoError(t, os.Symlink(path, path)) },
			"too many levels of symbolic links"},
		{"dangling link", link("gone.safetensors"), "a link to gone.safetensors, which does not exist"},
		{"directory", func(t *testing.T, path string) { require.NoError(t, os.Mkdir(path, 0o755)) },
			"a directory, not a regular file"},
		{"link to a file that says it is empty", link("/proc/self/status"), "grew while read, past its 0 bytes"},
	} {
		t.Run(c.what, func(t *testing.T) {
			dir := filepath.Join(parent, strconv.Itoa(i))
			require.NoError(t, os.Mkdir(dir, 0o755))
			path := filepath.Join(dir, name)
			c.make(t, path)
			t.Cleanup(func() { require.NoError(t, env.SetBaselines(nil)) })
			err := loadWithin(t, time.Second, dir)
			require.Error(t, err)
			assert.NotContains(t, err.Error(), "\n")
			assert.Contains(t, err.Error(), path+": ")
			assert.Contains(t, err.Error(), c.want)
		})
	}
}

// loadWithin is LoadBaselines(dir)'s error, failing the test if it takes
// longer than d rather than hanging the suite.
func loadWithin(t *testing.T, d time.Duration, dir string) error {
	t.Helper()
	done := make(chan error, 1)
	go func() {
		_, err := LoadBaselines(dir)
		done <- err
	}()
	select {
	case err := <-done:
		return err
	case <-time.After(d):
		t.Fatalf("LoadBaselines(%s) still runs after %v", dir, d)
		return nil
	}
}
