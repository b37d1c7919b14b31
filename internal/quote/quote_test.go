package quote

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestShortValuesAreQuotedWhole(t *testing.T) {
	require.Equal(t, `"greedy"`, Value("greedy"))
	require.Equal(t, `[1 "a" <nil>]`, Value([]any{int64(1), "a", nil}))
	require.Equal(t, "2.5", Value(2.5))
	require.Equal(t, "a map of 1 entries", Value(map[string]any{"k": 1}))
	require.Equal(t, "a value of type []int", Value([]int{1}))
}

func TestLongValuesAreCut(t *testing.T) {
	huge := strings.Repeat("é", 1<<20)
	q := Value(huge)
	require.Less(t, len(q), 2*Max+30)
	require.Contains(t, q, "(2097152 bytes)")

	nils := make([]any, 2_000_000)
	q = Value(nils)
	require.Less(t, len(q), 2*Max+30)
	require.Contains(t, q, "2000000 items")

	nested := []any{[]any{huge, huge}, huge}
	require.Less(t, len(Value(nested)), 8*Max)
}

func TestStringsListsTheFirstNames(t *testing.T) {
	names := make([]string, 100000)
	for i := range names {
		names[i] = "option"
	}
	q := Strings(names)
	require.Less(t, len(q), 3*Max)
	require.Contains(t, q, "100000 items")
}
