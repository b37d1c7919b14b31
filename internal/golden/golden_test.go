package golden

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// recorder is a testing.TB whose Fatalf records the message instead of
// stopping the test, so that Check's failures can be checked.
type recorder struct {
	testing.TB
	failure string
}

func (r *recorder) Fatalf(format string, args ...any) {
	r.failure = fmt.Sprintf(format, args...)
}

func TestCheckPassesOnEqualAndFailsOnDifferentText(t *testing.T) {
	path := filepath.Join(t.TempDir(), "game.txt")
	require.NoError(t, os.WriteFile(path, []byte("a=1 b=2\nc=3\n"), 0o644))

	r := &recorder{TB: t}
	Check(r, path, "a=1 b=2\nc=3\n", false)
	assert.Empty(t, r.failure)

	Check(r, path, "a=1 b=9\nc=3\n", false)
	assert.Contains(t, r.failure, "first difference at line 1, column 7")
	assert.Contains(t, r.failure, "go test -run TestCheckPassesOnEqualAndFailsOnDifferentText -update")
}

func TestCheckUpdateRewritesTheFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "game.txt")
	r := &recorder{TB: t}
	Check(r, path, "new\n", false)
	assert.Contains(t, r.failure, "no golden file")

	r.failure = ""
	Check(r, path, "new\n", true)
	assert.Empty(t, r.failure)
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, "new\n", string(data))
}

func TestFirstDifference(t *testing.T) {
	assert.Equal(t, "first difference at line 2, column 3:\ngot:  …abX…\nwant: …abc…",
		FirstDifference("same\nabX", "same\nabc"))
	assert.Equal(t, "got 1 lines, want 2", FirstDifference("x", "x\ny"))
	long := strings.Repeat("x", 100)
	got := FirstDifference(long+"1"+long, long+"2"+long)
	assert.Contains(t, got, "column 101")
	assert.Contains(t, got, "got:  …"+strings.Repeat("x", 40)+"1"+strings.Repeat("x", 59)+"…")
}
