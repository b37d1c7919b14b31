package server

import (
	"encoding/binary"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/splendor-rl/splendor/baselines"
	"github.com/splendor-rl/splendor/encoding/wire"
	"github.com/splendor-rl/splendor/env"
	"github.com/splendor-rl/splendor/env/nets"
	"github.com/splendor-rl/splendor/internal/nettest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// networkFile is a random network of env id made with options, sized for
// it (or with obs observation values when obs is positive).
func networkFile(t *testing.T, id string, options map[string]any, obs int) *nettest.File {
	t.Helper()
	v, err := env.Make(id, 1, options, 0, nil)
	require.NoError(t, err)
	if obs <= 0 {
		obs = v.Spec.ObsSize()
	}
	f := nettest.RandomNet(21, obs, v.Spec.NumActions, 16, 1)
	meta, err := json.Marshal(options)
	require.NoError(t, err)
	f.Meta["env"], f.Meta["options"] = id, string(meta)
	return f
}

// baselineDir is a fresh directory holding files.
func baselineDir(t *testing.T, files map[string][]byte) string {
	t.Helper()
	dir := t.TempDir()
	for name, b := range files {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), b, 0o644))
	}
	t.Cleanup(func() { require.NoError(t, env.SetBaselines(nil)) })
	return dir
}

func TestLoadBaselinesRefusesABadFileInOneLine(t *testing.T) {
	good := networkFile(t, "splendor-v1", map[string]any{"players": 2}, 0).Bytes()
	duel := networkFile(t, "splendor-duel-v1", map[string]any{}, 0).Bytes()
	for _, c := range []struct {
		name  string
		files map[string][]byte
		file  string // the file the refusal names
		want  string
	}{
		{"truncated", map[string][]byte{"splendor-v1-2p.safetensors": good[:len(good)/2]}, "splendor-v1-2p.safetensors", "nets: "},
		{"sizes not the env's", map[string][]byte{
			"splendor-v1-2p.safetensors": networkFile(t, "splendor-v1", map[string]any{"players": 2}, 100).Bytes()},
			"splendor-v1-2p.safetensors", "reads observations of 100 values, but splendor-v1"},
		{"named for one env, made for another", map[string][]byte{"splendor-v1-2p.safetensors": duel},
			"splendor-v1-2p.safetensors", "named for splendor-v1, but its network was trained on splendor-duel-v1"},
		{"named for other players", map[string][]byte{"splendor-v1-3p.safetensors": good},
			"splendor-v1-3p.safetensors", "named for 3 players, but trained with 2"},
		{"unknown env", map[string][]byte{"chess-v1-2p.safetensors": good}, "chess-v1-2p.safetensors", "named for chess-v1"},
		{"misnamed", map[string][]byte{"best.safetensors": good}, "best.safetensors", "want a name <env-id>-<players>p.safetensors"},
		{"one bad among good", map[string][]byte{"splendor-duel-v1-2p.safetensors": duel,
			"splendor-v1-2p.safetensors": good[:100]}, "splendor-v1-2p.safetensors", "nets: "},
	} {
		dir := baselineDir(t, c.files)
		_, err := LoadBaselines(dir)
		require.Error(t, err, c.name)
		msg := err.Error()
		assert.NotContains(t, msg, "\n", c.name)
		assert.Contains(t, msg, filepath.Join(dir, c.file)+": ", c.name)
		assert.Contains(t, msg, c.want, c.name)
		assert.Empty(t, env.BaselineNames(), "%s: a refused directory installed networks", c.name)
	}
	_, err := LoadBaselines(filepath.Join(t.TempDir(), "nowhere"))
	require.ErrorContains(t, err, "nowhere: no such file or directory")
	file := filepath.Join(baselineDir(t, map[string][]byte{"a": nil}), "a")
	_, err = LoadBaselines(file)
	require.ErrorContains(t, err, file+": not a directory")
}

// With no directory, the networks built into the binary are loaded: every
// *.safetensors file of baselines/.
func TestLoadBaselinesReadsTheEmbeddedOnes(t *testing.T) {
	t.Cleanup(func() { require.NoError(t, env.SetBaselines(nil)) })
	names, err := LoadBaselines("")
	require.NoError(t, err)
	shipped, err := fs.Glob(baselines.Files, "*.safetensors")
	require.NoError(t, err)
	assert.ElementsMatch(t, shipped, names)
}

// The baseline bots play over the wire as every bot does: against a
// client, in bot_actions (the network's argmax on the observation served),
// refused where no network plays, and searching within the search budget.
func TestBaselineBotsOverTheWire(t *testing.T) {
	file := networkFile(t, "splendor-v1", map[string]any{"players": 2}, 0)
	dir := baselineDir(t, map[string][]byte{"splendor-v1-2p.safetensors": file.Bytes(), "README.md": []byte("not a network")})
	names, err := LoadBaselines(dir)
	require.NoError(t, err)
	require.Equal(t, []string{"splendor-v1-2p.safetensors"}, names)
	net, err := nets.Read("net", file.Bytes())
	require.NoError(t, err)
	ev := net.NewEvaluator()

	cfg := testConfig()
	cfg.MaxSearchIterations = 1000
	_, url := start(t, cfg)
	c := dial(t, url)
	made, batch := makeBatch(t, c, 8, map[string]any{"players": 2})
	obs, na := made.Spec.ObsShape[0], made.Spec.NumActions
	for step := 0; step < 20; step++ {
		var advice wire.ActionsReply
		require.NoError(t, c.Call(wire.Request{Op: wire.OpBotActions, Handle: made.Handle, Bot: "baseline", Seed: seed(1)}, &advice))
		for i := range 8 {
			want := ev.Argmax(batch.Obs.Data[i*obs:(i+1)*obs], batch.Mask.Data[i*na:(i+1)*na])
			got := int32(binary.LittleEndian.Uint32(advice.Actions.Data[4*i:]))
			require.Equal(t, int32(want), got, "step %d, env %d", step, i)
		}
		require.NoError(t, c.Call(wire.Request{Op: wire.OpStep, Handle: made.Handle, Actions: &advice.Actions}, &batch))
	}

	vsBots, first := makeBatch(t, c, 4, map[string]any{"players": 2, "mode": "vs_bots", "bots": "baseline"})
	for range 30 {
		require.NoError(t, c.Call(wire.Request{Op: wire.OpStep, Handle: vsBots.Handle, Actions: ptr(firstLegal(first.Mask))}, &first))
	}

	var refused wire.MakeReply
	werr := requireCode(t, c.Call(wire.Request{Op: wire.OpMake, Env: "splendor-v1", NumEnvs: 1,
		Options: map[string]any{"players": 3, "mode": "vs_bots", "bots": "baseline"}}, &refused), wire.CodeBadOption)
	assert.True(t, strings.Contains(werr.Message, "no baseline network for splendor-v1 with 3 players") &&
		strings.Contains(werr.Message, "splendor-v1-2p.safetensors"), werr.Message)
	var advice wire.ActionsReply
	duel, _ := makeBatch2(t, c, "splendor-duel-v1")
	requireCode(t, c.Call(wire.Request{Op: wire.OpBotActions, Handle: duel.Handle, Bot: "baseline"}, &advice), wire.CodeBadOption)

	require.NoError(t, c.Call(wire.Request{Op: wire.OpBotActions, Handle: made.Handle, Bot: "baseline+search:100",
		EnvIDs: wire.EnvIDs{0, 1, 2, 3, 4, 5, 6, 7}, Seed: seed(1)}, &advice), "8 × 100 is within 1000")
	for i := range 8 {
		a := binary.LittleEndian.Uint32(advice.Actions.Data[4*i:])
		require.Equal(t, uint8(1), batch.Mask.Data[i*na+int(a)], "env %d: illegal %d", i, a)
	}
	werr = requireCode(t, c.Call(wire.Request{Op: wire.OpBotActions, Handle: made.Handle, Bot: "baseline+search:200",
		Seed: seed(1)}, &advice), wire.CodeLimit)
	assert.Contains(t, werr.Message, "1600 mcts iterations, more than max_search_iterations 1000")
	werr = requireCode(t, c.Call(wire.Request{Op: wire.OpMake, Env: "splendor-v1", NumEnvs: 4,
		Options: map[string]any{"mode": "vs_bots", "bots": "baseline+search:300"}}, &refused), wire.CodeLimit)
	assert.Contains(t, werr.Message, "1200 mcts iterations")
}

// makeBatch2 makes and resets one env of id.
func makeBatch2(t *testing.T, c *Client, id string) (wire.MakeReply, wire.BatchReply) {
	t.Helper()
	var made wire.MakeReply
	require.NoError(t, c.Call(wire.Request{Op: wire.OpMake, Env: id, NumEnvs: 1, Seed: seed(1)}, &made))
	var first wire.BatchReply
	require.NoError(t, c.Call(wire.Request{Op: wire.OpReset, Handle: made.Handle}, &first))
	return made, first
}

// A named edition ("<env>-<players>p@<edition>.safetensors") plays as
// "baseline@<edition>" beside the default network, which stays "baseline":
// each bot is its own network's argmax; an edition not loaded, or at a
// table size it has no network for, is refused naming what is loaded; a
// file whose edition is no name is refused at load.
func TestNamedEditionsPlayBesideTheBaseline(t *testing.T) {
	current := networkFile(t, "splendor-v1", map[string]any{"players": 2}, 0)
	shape := current.Tensor("policy.weight").Shape
	old := nettest.RandomNet(22, current.Tensor("scale").Shape[0], shape[0], 16, 1)
	old.Meta = current.Meta
	dir := baselineDir(t, map[string][]byte{"splendor-v1-2p.safetensors": current.Bytes(),
		"splendor-v1-2p@2026-11-26.safetensors": old.Bytes()})
	names, err := LoadBaselines(dir)
	require.NoError(t, err)
	require.ElementsMatch(t, []string{"splendor-v1-2p.safetensors", "splendor-v1-2p@2026-11-26.safetensors"}, names)

	_, url := start(t, testConfig())
	c := dial(t, url)
	var hello wire.HelloReply
	require.NoError(t, c.Call(wire.Request{Op: wire.OpHello}, &hello))
	require.Equal(t, []wire.BaselineSpec{{Env: "splendor-v1", Players: 2}, {Env: "splendor-v1", Players: 2, Edition: "2026-11-26"}},
		hello.Baselines, "hello lists where a baseline bot plays, and nowhere else")
	made, batch := makeBatch(t, c, 8, map[string]any{"players": 2})
	obs, na := made.Spec.ObsShape[0], made.Spec.NumActions
	differ := 0
	for bot, file := range map[string]*nettest.File{"baseline": current, "baseline@2026-11-26": old} {
		net, err := nets.Read(bot, file.Bytes())
		require.NoError(t, err)
		ev := net.NewEvaluator()
		var advice wire.ActionsReply
		require.NoError(t, c.Call(wire.Request{Op: wire.OpBotActions, Handle: made.Handle, Bot: bot}, &advice))
		for i := range 8 {
			want := ev.Argmax(batch.Obs.Data[i*obs:(i+1)*obs], batch.Mask.Data[i*na:(i+1)*na])
			require.Equal(t, uint32(want), binary.LittleEndian.Uint32(advice.Actions.Data[4*i:]), "%s, env %d", bot, i)
		}
		if bot != "baseline" {
			var other wire.ActionsReply
			require.NoError(t, c.Call(wire.Request{Op: wire.OpBotActions, Handle: made.Handle, Bot: "baseline"}, &other))
			for i := range 8 {
				differ += int(binary.LittleEndian.Uint32(advice.Actions.Data[4*i:]) ^ binary.LittleEndian.Uint32(other.Actions.Data[4*i:]))
			}
		}
	}
	require.NotZero(t, differ, "the two networks chose alike everywhere: the test tells nothing")
	var advice wire.ActionsReply
	require.NoError(t, c.Call(wire.Request{Op: wire.OpBotActions, Handle: made.Handle, Bot: "baseline@2026-11-26+search:16",
		Seed: seed(1)}, &advice))

	var refused wire.MakeReply
	werr := requireCode(t, c.Call(wire.Request{Op: wire.OpMake, Env: "splendor-v1", NumEnvs: 1,
		Options: map[string]any{"mode": "vs_bots", "bots": "baseline@2026-12-01"}}, &refused), wire.CodeBadOption)
	assert.Contains(t, werr.Message, `no baseline edition "2026-12-01" (loaded: [2026-11-26])`)
	werr = requireCode(t, c.Call(wire.Request{Op: wire.OpMake, Env: "splendor-v1", NumEnvs: 1,
		Options: map[string]any{"players": 3, "mode": "vs_bots", "bots": "baseline@2026-11-26"}}, &refused), wire.CodeBadOption)
	assert.Contains(t, werr.Message, "no baseline@2026-11-26 network for splendor-v1 with 3 players")

	bad := baselineDir(t, map[string][]byte{"splendor-v1-2p@Old.safetensors": old.Bytes()})
	_, err = LoadBaselines(bad)
	require.ErrorContains(t, err, `edition "Old": want lower-case letters, digits, dots and dashes`)
}
