package wire

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vmihailenco/msgpack/v5"
)

var update = flag.Bool("update", false, "rewrite the golden frames in testdata/")

func seedPtr(s uint64) *Seed { v := Seed(s); return &v }

// goldenFrames are the frames PROTOCOL.md shows, one per message kind. The Go
// tests and the Python tests decode the same files.
var goldenFrames = map[string]any{
	"hello_request": &Request{ID: 1, Op: OpHello},
	"hello_reply": &HelloReply{ID: 1, Protocol: ProtocolVersion, Server: "0.1.0", Envs: []string{"splendor-v1"},
		Limits: Limits{MaxMessageBytes: 1 << 20, MaxEnvsPerConnection: 65536, MaxEnvsTotal: 262144, MaxConnections: 256,
			SearchSlots: 1},
		EnvOptions: map[string][]OptionSpec{"splendor-v1": {
			{Name: "players", Type: "int", Default: 2, Min: ptr(2), Max: ptr(4)},
			{Name: "mode", Type: "str", Default: "self_play", Choices: []string{"self_play", "vs_bots"}}}},
		Baselines: []BaselineSpec{{Env: "splendor-v1", Players: 2}, {Env: "splendor-v1", Players: 2, Edition: "2026-11-26"}}},
	"make_request": &Request{ID: 2, Op: OpMake, Env: "splendor-v1", NumEnvs: 2,
		Options: map[string]any{"players": 2, "mode": "self_play"}, Seed: seedPtr(7)},
	"make_reply": &MakeReply{ID: 2, Handle: 1, Spec: Spec{ID: "splendor-v1", Version: 1, NumEnvs: 2, ObsShape: []int{3},
		ObsDtype: Uint8, Layout: []Block{{Name: "bank", Offset: 0, Shape: []int{3}, Strides: []int{1},
			Fields: []string{"white", "blue", "green"}}}, NumActions: 2, ActionLabels: []string{"take white blue green", "pass"}, Players: 2,
		Mode: "self_play", Autoreset: "next_step", IllegalAction: "error", RewardRange: [2]float32{-1, 1},
		Options: map[string]any{"players": 2, "mode": "self_play"}}},
	"reset_request": &Request{ID: 3, Op: OpReset, Handle: 1, Seeds: Seeds{7, 1 << 63}},
	"step_request":  &Request{ID: 4, Op: OpStep, Handle: 1, Actions: ptr(Int32Tensor([]int32{0, 1}, 2))},
	"step_reply": &BatchReply{ID: 4,
		Obs:        Uint8Tensor([]uint8{1, 2, 3, 4, 5, 6}, 2, 3),
		Mask:       Uint8Tensor([]uint8{0, 0, 1, 1}, 2, 2),
		Rewards:    Float32Tensor([]float32{1, -1, 0, 0}, 2, 2),
		Terminated: BoolTensor([]bool{true, false}, 2),
		Truncated:  BoolTensor([]bool{false, false}, 2),
		ToPlay:     Int32Tensor([]int32{1, 0}, 2)},
	// A step for seat 0: env 0 waits for seat 1, so its obs and mask rows are zeros.
	"step_seat_request": &Request{ID: 12, Op: OpStep, Handle: 1, Actions: ptr(Int32Tensor([]int32{0, 1}, 2)), Seat: ptr(0)},
	"step_seat_reply": &BatchReply{ID: 12,
		Obs:        Uint8Tensor([]uint8{0, 0, 0, 4, 5, 6}, 2, 3),
		Mask:       Uint8Tensor([]uint8{0, 0, 1, 1}, 2, 2),
		Rewards:    Float32Tensor([]float32{0, 0, 0, 0}, 2, 2),
		Terminated: BoolTensor([]bool{false, false}, 2),
		Truncated:  BoolTensor([]bool{false, false}, 2),
		ToPlay:     Int32Tensor([]int32{1, 0}, 2)},
	"close_request": &Request{ID: 5, Op: OpClose, Handle: 1},
	"close_reply":   &CloseReply{ID: 5, Closed: true},
	"error_reply": &ErrorReply{ID: 4, Error: Error{Code: CodeIllegalAction,
		Message: "illegal action in env(s) [1]: env 1: action 1 (pass) is not legal", Envs: []int{1}}},

	// The search ops. set_state, determinize and fork answer with a batch
	// reply, of step_reply's form.
	"get_state_request": &Request{ID: 6, Op: OpGetState, Handle: 1, EnvIDs: EnvIDs{1}},
	"get_state_reply":   &StatesReply{ID: 6, States: []string{goldenState}},
	"set_state_request": &Request{ID: 7, Op: OpSetState, Handle: 1, EnvIDs: EnvIDs{0}, States: []string{goldenState}},
	"determinize_request": &Request{ID: 8, Op: OpDeterminize, Handle: 1, EnvIDs: EnvIDs{0, 1},
		Seeds: Seeds{11, 1 << 63}},
	"fork_request": &Request{ID: 9, Op: OpFork, Handle: 1, Src: EnvIDs{0, 0}, Dst: EnvIDs{1, 2}},
	"bot_actions_request": &Request{ID: 10, Op: OpBotActions, Handle: 1, EnvIDs: EnvIDs{0, 1}, Bot: "greedy",
		Seed: seedPtr(3)},
	"bot_actions_reply": &ActionsReply{ID: 10, Actions: Int32Tensor([]int32{5, -1}, 2)},
	// An mcts bot's targets for 2 envs of 2 actions; env 1's episode is over.
	"bot_actions_targets_request": &Request{ID: 13, Op: OpBotActions, Handle: 1, EnvIDs: EnvIDs{0, 1},
		Bot: "mcts:800", Seed: seedPtr(3), Targets: true},
	"bot_actions_targets_reply": &ActionsReply{ID: 13, Actions: Int32Tensor([]int32{1, -1}, 2),
		Policy: ptr(Float32Tensor([]float32{0.25, 0.75, 0, 0}, 2, 2)), Value: ptr(Float32Tensor([]float32{0.5, 0}, 2)),
		Values: ptr(Float32Tensor([]float32{0.5, -0.5, 0, 0}, 2, 2))},

	// A guided search of 2 envs (2 actions, obs [3]): env 1 is over, so one leaf.
	"search_request": &Request{ID: 14, Op: OpSearch, Handle: 1, Seed: seedPtr(5),
		Settings: map[string]any{"algorithm": "gumbel", "simulations": 8}},
	"search_reply": &SearchReply{ID: 14, LeafEnvs: Int32Tensor([]int32{0}, 1), Obs: Uint8Tensor([]uint8{1, 2, 3}, 1, 3),
		Mask: ptr(Uint8Tensor([]uint8{1, 1}, 1, 2))},
	"evaluate_request": &Request{ID: 15, Op: OpEvaluate, Handle: 1, Priors: ptr(Float32Tensor([]float32{0.25, 0.75}, 1, 2)),
		Values: ptr(Float32Tensor([]float32{0.5}, 1))},
	"search_done_reply": &SearchReply{ID: 15, Done: true, LeafEnvs: Int32Tensor(nil, 0), Obs: Uint8Tensor(nil, 0, 3),
		Mask: ptr(Uint8Tensor(nil, 0, 2)), Policy: ptr(Float32Tensor([]float32{0.25, 0.75, 0, 0}, 2, 2)),
		Value: ptr(Float32Tensor([]float32{0.5, 0}, 2)), Values: ptr(Float32Tensor([]float32{0.5, -0.5, 0, 0}, 2, 2)),
		Action: ptr(Int32Tensor([]int32{1, -1}, 2))},
	// The same evaluation with every seat's value, from the leaf's seat to play's view.
	"evaluate_seats_request": &Request{ID: 15, Op: OpEvaluate, Handle: 1, Priors: ptr(Float32Tensor([]float32{0.25, 0.75}, 1, 2)),
		Values: ptr(Float32Tensor([]float32{0.5, -0.5}, 1, 2))},
	// The same search packed (10 actions): the leaf's mask as bits (actions 0, 3 and 9 legal), the priors of
	// those three only.
	"search_packed_request": &Request{ID: 14, Op: OpSearch, Handle: 1, Seed: seedPtr(5), Packed: true,
		Settings: map[string]any{"algorithm": "gumbel", "simulations": 8}},
	"search_packed_reply": &SearchReply{ID: 14, LeafEnvs: Int32Tensor([]int32{0}, 1), Obs: Uint8Tensor([]uint8{1, 2, 3}, 1, 3),
		MaskBits: ptr(Uint8Tensor([]uint8{0b1001, 0b10}, 1, 2))},
	"evaluate_legal_request": &Request{ID: 15, Op: OpEvaluate, Handle: 1, LegalPriors: ptr(Float32Tensor([]float32{0.5, 0.25, 0.25}, 3)),
		Values: ptr(Float32Tensor([]float32{0.5}, 1))},

	// The view op: seat 1's view of env 0, cut down to a few of its fields.
	"view_request": &Request{ID: 11, Op: OpView, Handle: 1, EnvIDs: EnvIDs{0}, Seat: ptr(1)},
	"view_reply": &ViewsReply{ID: 11, Views: []any{map[string]any{"players": 2, "seat": 0, "phase": "main",
		"turn": 0, "deck_sizes": []int{36, 26, 16}, "over": false}},
		Boards: []string{"Splendor: turn 1, seat 0 to act (main), payment auto\nbank      W4 U4 G4 R4 K4 gold 5\n"}},
}

// goldenState is a splendor-v1 state as get_state writes it (env 1 of a batch
// made with seed 7, before its first step), its decks cut short with "…".
const goldenState = "seed=8 next=13321501655698933660 pending=0 over=0 terminated=0 truncated=0 rewards=0,0; " +
	"players=2 seat=0 phase=main turn=0 final=0 passes=0 bank=444445 nobles=0.5.2.-.- " +
	"market=24.23.26.19/58.68.51.40/79.87.86.85 decks=22.37…/52.41…/82.83… p0=000000|-|-|- p1=000000|-|-|- " +
	"| me=0 last=0 truncated=0 bots=e7ae492a3a0df654,befd5b2dc024a30a rewards=0,0 potential=0,0"

func ptr[T any](v T) *T { return &v }

func TestGoldenFrames(t *testing.T) {
	codec := NewCodec()
	for name, msg := range goldenFrames {
		t.Run(name, func(t *testing.T) {
			var frame bytes.Buffer
			require.NoError(t, codec.Encode(&frame, msg))
			path := filepath.Join("testdata", name+".msgpack")
			if *update {
				require.NoError(t, os.WriteFile(path, frame.Bytes(), 0o644))
				require.NoError(t, os.WriteFile(filepath.Join("testdata", name+".json"), describe(t, frame.Bytes()), 0o644))
			}
			golden, err := os.ReadFile(path)
			require.NoError(t, err)
			require.Equal(t, hex.EncodeToString(golden), hex.EncodeToString(frame.Bytes()),
				"%s changed; if intended, run go test ./encoding/wire -update and document it in PROTOCOL.md", path)
			described, err := os.ReadFile(filepath.Join("testdata", name+".json"))
			require.NoError(t, err)
			require.JSONEq(t, string(described), string(describe(t, golden)))
			checkDecodes(t, codec, golden, msg)
		})
	}
}

// checkDecodes: requests decode with the server's strict decoder, replies
// with the client's, back to the message that was encoded.
func checkDecodes(t *testing.T, codec *Codec, frame []byte, msg any) {
	if want, ok := msg.(*Request); ok {
		var got Request
		require.Nil(t, codec.DecodeRequest(frame, &got))
		if want.Options != nil { // msgpack gives the smallest integer type back
			require.EqualValues(t, 2, got.Options["players"])
			got.Options = want.Options
		}
		if want.Settings != nil {
			require.EqualValues(t, 8, got.Settings["simulations"])
			got.Settings = want.Settings
		}
		require.Equal(t, *want, got)
		return
	}
	if want, ok := msg.(*ErrorReply); ok {
		var werr *Error
		require.ErrorAs(t, DecodeReply(frame, &struct{}{}), &werr)
		require.Equal(t, want.Error, *werr)
		return
	}
	got := reflectNew(msg)
	require.NoError(t, DecodeReply(frame, got))
	var again bytes.Buffer // compared encoded: msgpack gives any-typed integers back as their smallest type
	require.NoError(t, codec.Encode(&again, got))
	require.Equal(t, hex.EncodeToString(frame), hex.EncodeToString(again.Bytes()))
}

// describe renders a frame as JSON for readers and for the Python tests:
// msgpack bin values become {"bin": "<hex>"}.
func describe(t *testing.T, frame []byte) []byte {
	var v any
	require.NoError(t, msgpack.Unmarshal(frame, &v))
	out, err := json.MarshalIndent(jsonable(v), "", "  ")
	require.NoError(t, err)
	return append(out, '\n')
}

func jsonable(v any) any {
	switch x := v.(type) {
	case []byte:
		return map[string]string{"bin": hex.EncodeToString(x)}
	case map[string]any:
		m := map[string]any{}
		for k, e := range x {
			m[k] = jsonable(e)
		}
		return m
	case []any:
		l := make([]any, len(x))
		for i, e := range x {
			l[i] = jsonable(e)
		}
		return l
	}
	return v
}

// SizeHint covers what a batch reply encodes to, so the server sizes its
// reply buffer once.
func TestBatchReplySizeHintCoversTheFrame(t *testing.T) {
	obs := make([]byte, 1024*665*4)
	ended := make([]bool, 1024)
	r := BatchReply{ID: 1 << 40, Obs: Uint8Tensor(obs, 1024, 665*4), Mask: Uint8Tensor(make([]byte, 1024*274), 1024, 274),
		Rewards: Float32Tensor(make([]float32, 2048), 1024, 2), Terminated: BoolTensor(ended, 1024),
		Truncated: BoolTensor(ended, 1024), ToPlay: Int32Tensor(make([]int32, 1024), 1024)}
	final, e := r.Obs, BoolTensor(ended, 1024)
	r.FinalObs, r.Ended = &final, &e
	var buf bytes.Buffer
	require.NoError(t, NewCodec().Encode(&buf, &r))
	require.GreaterOrEqual(t, r.SizeHint(), buf.Len())
	require.Less(t, r.SizeHint(), buf.Len()+1024)
}
