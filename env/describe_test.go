package env_test

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/splendor-rl/splendor/env"
	"github.com/stretchr/testify/require"
)

// Every option an env reads is in its spec page's options table, with its
// default, and Describe says what make applies.
func TestSpecPagesListEveryOption(t *testing.T) {
	for _, id := range env.IDs() {
		page, err := os.ReadFile("../docs/envs/" + strings.TrimSuffix(id, "-v1") + ".md")
		require.NoError(t, err, id)
		options, err := env.Describe(id)
		require.NoError(t, err)
		v, err := env.Make(id, 1, nil, 0, nil)
		require.NoError(t, err)
		for _, o := range options {
			row := optionRow(string(page), o.Name)
			require.NotEmpty(t, row, "%s: no row for option %s", id, o.Name)
			require.Contains(t, row, "| "+docValue(o.Default)+" |", "%s: default of %s", id, o.Name)
			for _, choice := range o.Choices {
				require.Contains(t, row, "`"+choice+"`", "%s: %s", id, o.Name)
			}
			require.Contains(t, v.Spec.Options, o.Name, "applied options name every option")
		}
		require.Len(t, v.Spec.Options, len(options))
	}
}

// PROTOCOL.md's table of the options every env reads lists each with its
// default: they are the four options both games read first (the turn-based
// env's own follow, on each game's spec page).
func TestProtocolListsTheBatchOptions(t *testing.T) {
	doc, err := os.ReadFile("../encoding/wire/PROTOCOL.md")
	require.NoError(t, err)
	splendor, err := env.Describe("splendor-v1")
	require.NoError(t, err)
	duel, err := env.Describe("splendor-duel-v1")
	require.NoError(t, err)
	batch := 0
	for batch < 4 && splendor[batch].Name == duel[batch].Name {
		o := splendor[batch]
		row := optionRow(string(doc), o.Name)
		require.NotEmpty(t, row, "PROTOCOL.md: no row for %s", o.Name)
		require.True(t, strings.HasSuffix(row, "| "+docValue(o.Default)+" |"), "PROTOCOL.md: default of %s", o.Name)
		batch++
	}
	require.Equal(t, 4, batch, "autoreset, obs_dtype, illegal_action, obs_seats")
}

func TestAppliedOptionsAreTheValuesUsed(t *testing.T) {
	v, err := env.Make("splendor-v1", 1, env.Options{"players": int8(3), "bots": "greedy", "mode": "vs_bots"}, 0, nil)
	require.NoError(t, err)
	require.Equal(t, 3, v.Spec.Options["players"])
	require.Equal(t, []string{"greedy", "greedy", "greedy"}, v.Spec.Options["bots"])
	require.Equal(t, -1, v.Spec.Options["seat"])
	require.Equal(t, "next_step", v.Spec.Options["autoreset"])
}

func optionRow(page, name string) string {
	for _, line := range strings.Split(page, "\n") {
		if strings.HasPrefix(line, "| `"+name+"` |") {
			return line
		}
	}
	return ""
}

// docValue is how a spec page writes a default: strings as code, negative
// numbers with a minus sign.
func docValue(v any) string {
	switch x := v.(type) {
	case string:
		return "`" + x + "`"
	case int:
		if x < 0 {
			return fmt.Sprintf("−%d", -x)
		}
	}
	return fmt.Sprint(v)
}
