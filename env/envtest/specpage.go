package envtest

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// SpecPage checks a game's spec page (path, from the test's folder) against
// its code: the page lists every action's label as a table row "| i |
// `label` |" and holds each of rows (offsets, sizes, its version line), so
// that what users read is what the env does.
func SpecPage(t *testing.T, path string, numActions int, label func(int) string, rows ...string) {
	page, err := os.ReadFile(path)
	require.NoError(t, err)
	doc := string(page)
	for i := range numActions {
		require.Contains(t, doc, fmt.Sprintf("| %d | `%s` |", i, label(i)))
	}
	for _, row := range rows {
		require.True(t, strings.Contains(doc, row), "%s lacks %q", path, row)
	}
}
