package nets_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/splendor-rl/splendor/env/nets"
	"github.com/splendor-rl/splendor/internal/nettest"
	"github.com/stretchr/testify/require"
)

// writeFile writes b as a file in a fresh directory and returns its path.
func writeFile(t testing.TB, b []byte) string {
	path := filepath.Join(t.TempDir(), "net.safetensors")
	require.NoError(t, os.WriteFile(path, b, 0o644))
	return path
}

func TestTheTestFilesAreOfThisFormat(t *testing.T) {
	require.Equal(t, nets.Format, nettest.Format)
}
