package server

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/splendor-rl/splendor/encoding/wire"
	"github.com/vmihailenco/msgpack/v5"
)

// The fuzzer's checks of every reply: the envelope (its request's id, a
// code from the list, never internal, success or failure as the request
// demands), then each op's payload, whose values also update the model.

var errTrailing = errors.New("bytes after the reply's map")

// decodeReply reads a reply frame: exactly one msgpack map, tensor data
// as bin ([]byte; str would be a string).
func decodeReply(frame []byte) (msg, error) {
	dec := msgpack.NewDecoder(bytes.NewReader(frame))
	var m msg
	if err := dec.Decode(&m); err != nil {
		return nil, err
	}
	if dec.Buffered().(*bytes.Reader).Len() > 0 {
		return nil, errTrailing
	}
	return m, nil
}

func (s *fuzzSession) check(r *sentRequest, m msg) {
	if id, ok := uintOf(m["id"]); !ok || (id != r.id && !(r.anyID && id == 0)) {
		s.fail("the reply carries id %v, not its request's %d", m["id"], r.id)
	}
	if e, failed := m["error"]; failed {
		s.checkError(r, e)
		return
	}
	if r.expect == mustFail {
		s.fail("the request is one the protocol refuses, yet it succeeded")
	}
	s.accepted(r, m)
}

func (s *fuzzSession) checkError(r *sentRequest, e any) {
	em, _ := e.(msg)
	code, message := wire.Code(strOf(em["code"])), strOf(em["message"])
	switch {
	case code == wire.CodeInternal:
		s.fail("code internal: a server bug")
	case !slices.Contains(wire.Codes, code):
		s.fail("error code %q is not one of the protocol's", code)
	case message == "" || len(message) > wire.MaxMessageBytes:
		s.fail("an error message of %d bytes: want 1–%d", len(message), wire.MaxMessageBytes)
	case em["envs"] != nil && (code != wire.CodeIllegalAction || !slices.IsSorted(intsOf(em["envs"]))):
		s.fail("envs %v with code %s: only illegal_action lists envs, ascending", em["envs"], code)
	case r.expect == mustSucceed:
		s.fail("a valid request was refused")
	}
}

// accepted checks a successful reply against the request and the model,
// and learns from it.
func (s *fuzzSession) accepted(r *sentRequest, m msg) {
	switch r.op {
	case "hello":
		if intOf(m["protocol"]) != wire.ProtocolVersion || !containsAll(m["envs"], fuzzEnvs) {
			s.fail("hello: protocol %v, envs %v", m["protocol"], m["envs"])
		}
	case "make":
		s.made(r, m)
	case "reset", "step", "set_state", "determinize", "fork":
		s.batchReply(r, m)
	case "close":
		if m["closed"] != true {
			s.fail("close: closed is %v", m["closed"])
		}
		r.b.closed, r.b.searches = true, [MaxSearchParts]*fuzzSearch{}
	case "get_state":
		s.gotStates(r, m)
	case "view":
		s.views(r, m)
	case "bot_actions":
		s.botActions(r, m)
	case "search", "evaluate":
		s.searchReply(r, m)
	}
}

func (s *fuzzSession) made(r *sentRequest, m msg) {
	spec, _ := m["spec"].(msg)
	handle, _ := uintOf(m["handle"])
	labels := stringsOf(spec["action_labels"])
	for _, b := range s.batches {
		if handle <= b.handle {
			s.fail("make: handle %d after handle %d: handles count up and are never reused", handle, b.handle)
		}
	}
	b := newFuzzBatch(handle, spec)
	unique := map[string]bool{}
	for _, l := range labels {
		unique[l] = true
	}
	if b.n != r.n || b.actions < 1 || len(unique) != b.actions || len(labels) != b.actions || b.players < 1 ||
		!slices.Contains([]string{"uint8", "float32"}, b.dtype) || b.rewards[0] > b.rewards[1] {
		s.fail("make: a spec that does not hold together: %s", show(spec))
	}
	s.batches = append(s.batches, b)
}

// batchReply checks a reset, step, set_state, determinize or fork reply's
// tensors and takes its masks into the model.
func (s *fuzzSession) batchReply(r *sentRequest, m msg) {
	b, n := r.b, r.b.n
	obs := s.tensorIn(m, "obs", b.dtype, append([]int{n}, b.obsShape...)...)
	mask := s.tensorIn(m, "mask", "uint8", n, b.actions)
	rewards := decodeFloat32s(s.tensorIn(m, "rewards", "float32", n, b.players))
	terminated, truncated := s.tensorIn(m, "terminated", "bool", n), s.tensorIn(m, "truncated", "bool", n)
	toPlay := decodeInt32s(s.tensorIn(m, "to_play", "int32", n))
	if b.autoreset == "same_step" {
		s.bits("ended", s.tensorIn(m, "ended", "bool", n))
		s.observations("final_obs", s.tensorIn(m, "final_obs", b.dtype, append([]int{n}, b.obsShape...)...), b.dtype)
	} else if m["ended"] != nil || m["final_obs"] != nil {
		s.fail("ended and final_obs in a batch made with autoreset %s", b.autoreset)
	}
	s.bits("mask", mask)
	s.bits("terminated", terminated)
	s.bits("truncated", truncated)
	s.observations("obs", obs, b.dtype)
	rows := make([]envRow, n)
	for i := range n {
		s.checkRow(r, i, mask[i*b.actions:(i+1)*b.actions], rewards[i*b.players:(i+1)*b.players],
			terminated[i]|truncated[i] == 1, int(toPlay[i]), obs)
		rows[i] = envRow{view: fmt.Sprintf("%x|%x", obs[i*len(obs)/n:(i+1)*len(obs)/n], mask[i*b.actions:(i+1)*b.actions]),
			rest: fmt.Sprint(rewards[i*b.players:(i+1)*b.players], terminated[i], truncated[i], toPlay[i])}
	}
	s.checkCopies(r, rows)
	s.learnRows(r, mask, toPlay, rows)
}

// checkCopies: an env a state was loaded into shows the row its source
// showed when the state was read; a forked env shows its source's row as
// it was; a redeal leaves what the seat to play sees as it was (with every
// seat's view, the others' may change).
func (s *fuzzSession) checkCopies(r *sentRequest, rows []envRow) {
	b := r.b
	for k, i := range b.allIDs(r.ids) {
		var want envRow
		switch r.op {
		case "set_state":
			want = r.loaded[k].row
		case "fork":
			want = b.rows[r.src[k]]
		case "determinize":
			if len(b.obsShape) == 1 {
				want = envRow{view: b.rows[i].view}
			}
		}
		switch {
		case want.view != "" && rows[i].view != want.view:
			s.fail("%s: env %d's observation or mask is not the one it should show", r.op, i)
		case want.rest != "" && rows[i].rest != want.rest:
			s.fail("%s: env %d's rewards, flags and seat to play are %s, want %s", r.op, i, rows[i].rest, want.rest)
		}
	}
}

// checkRow checks env i's row: its seat to play, its rewards, a mask that
// is empty once the episode ended, and for a reply for one seat, nothing
// of the other seats.
func (s *fuzzSession) checkRow(r *sentRequest, i int, mask []uint8, rewards []float32, ended bool, toPlay int, obs []byte) {
	b := r.b
	if toPlay < 0 || toPlay >= b.players {
		s.fail("env %d: to_play %d of a %d-seat table", i, toPlay, b.players)
	}
	for seat, x := range rewards {
		if !(float64(x) >= b.rewards[0]-1e-6 && float64(x) <= b.rewards[1]+1e-6) {
			s.fail("env %d: seat %d's reward %v is outside reward_range %v", i, seat, x, b.rewards)
		}
	}
	if ended && b.autoreset != "same_step" && slices.Contains(mask, 1) {
		s.fail("env %d: its episode ended, yet its mask has legal actions", i)
	}
	if r.seat == nil {
		return
	}
	row := obs[i*len(obs)/b.n : (i+1)*len(obs)/b.n]
	if *r.seat != toPlay && (slices.Contains(mask, 1) || (len(b.obsShape) == 1 && !allZero(row))) {
		s.fail("env %d: a reply for seat %d shows seat %d's mask or observation", i, *r.seat, toPlay)
	}
	if len(b.obsShape) == 1 {
		return
	}
	for seat := range b.players { // obs_seats all: a part per seat
		part := row[seat*len(row)/b.players : (seat+1)*len(row)/b.players]
		if seat != *r.seat && !allZero(part) {
			s.fail("env %d: a reply for seat %d shows seat %d's part of the observation", i, *r.seat, seat)
		}
	}
}

// learnRows takes a batch reply's masks: rows a reply for one seat zeroed
// stay unknown. A reset starts its envs; a fork copies what is known of its
// sources; a state loaded may be one that waits for its reset.
func (s *fuzzSession) learnRows(r *sentRequest, mask []uint8, toPlay []int32, rows []envRow) {
	b := r.b
	copy(b.mask, mask)
	for i := range b.n {
		b.known[i] = r.seat == nil || int(toPlay[i]) == *r.seat
		b.rows[i] = envRow{}
		if b.known[i] && (r.seat == nil || len(b.obsShape) == 1) { // every seat's view: the others' zeroed
			b.rows[i] = rows[i]
		}
	}
	switch r.op {
	case "reset":
		for _, i := range b.allIDs(r.ids) {
			b.started[i], b.dealt[i] = true, true
		}
	case "fork":
		started, dealt := slices.Clone(b.started), slices.Clone(b.dealt)
		for k, i := range r.ids {
			b.started[i], b.dealt[i] = started[r.src[k]], dealt[r.src[k]]
		}
	case "set_state":
		for _, i := range b.allIDs(r.ids) {
			b.started[i], b.dealt[i] = false, true
		}
	}
}

func (s *fuzzSession) gotStates(r *sentRequest, m msg) {
	states, ids := stringsOf(m["states"]), r.b.allIDs(r.ids)
	if len(states) != len(ids) {
		s.fail("get_state: %d states for %d envs", len(states), len(ids))
	}
	for k, i := range ids {
		if r.b.dealt[i] {
			r.b.states[i] = fuzzState{text: states[k], row: r.b.rows[i]}
		}
	}
}

// views checks a view reply: a view and a board per env, and a seat's view
// leaves out what that seat cannot see.
func (s *fuzzSession) views(r *sentRequest, m msg) {
	views, boards, k := listOf(m["views"]), stringsOf(m["boards"]), len(r.b.allIDs(r.ids))
	if len(views) != k || len(boards) != k {
		s.fail("view: %d views and %d boards for %d envs", len(views), len(boards), k)
	}
	for _, v := range views {
		view, _ := v.(msg)
		for _, hidden := range []string{"notation", "decks", "chance"} {
			if _, shown := view[hidden]; shown && r.seat != nil && *r.seat >= 0 {
				s.fail("view: seat %d's view shows %s", *r.seat, hidden)
			}
		}
	}
}

// tensorIn is reply field key as a tensor of dtype and shape; its data
// must hold exactly that many elements.
func (s *fuzzSession) tensorIn(m msg, key, dtype string, shape ...int) []byte {
	t, _ := m[key].(msg)
	data, _ := t["data"].([]byte)
	got := intsOf(t["shape"])
	if t == nil || strOf(t["dtype"]) != dtype || !slices.Equal(got, shape) ||
		len(data) != product(shape)*map[string]int{"uint8": 1, "bool": 1, "int32": 4, "float32": 4}[dtype] {
		s.fail("%s: want a %s tensor of shape %v, got %s", key, dtype, shape, show(m[key]))
	}
	return data
}

// leafCount is the length of a search reply's leaf_envs.
func leafCount(m msg) int {
	t, _ := m["leaf_envs"].(msg)
	if shape := intsOf(t["shape"]); len(shape) == 1 {
		return shape[0]
	}
	return -1
}

// bits checks a uint8 or bool tensor holds only 0 and 1.
func (s *fuzzSession) bits(key string, data []byte) {
	for j, x := range data {
		if x > 1 {
			s.fail("%s: element %d is %d, not 0 or 1", key, j, x)
		}
	}
}

// observations checks float32 observations hold the same small integers
// as uint8 ones would.
func (s *fuzzSession) observations(key string, data []byte, dtype string) {
	if dtype != "float32" {
		return
	}
	for j, x := range decodeFloat32s(data) {
		if x != float32(math.Trunc(float64(x))) || x < 0 || x > 255 {
			s.fail("%s: element %d is %v, not a small integer", key, j, x)
		}
	}
}

func decodeFloat32s(data []byte) []float32 {
	out := make([]float32, len(data)/4)
	for i := range out {
		out[i] = math.Float32frombits(binary.LittleEndian.Uint32(data[4*i:]))
	}
	return out
}

func decodeInt32s(data []byte) []int32 {
	out := make([]int32, len(data)/4)
	for i := range out {
		out[i] = int32(binary.LittleEndian.Uint32(data[4*i:]))
	}
	return out
}

func allZero(data []byte) bool {
	return !slices.ContainsFunc(data, func(x byte) bool { return x != 0 })
}
