package server

import (
	"bytes"
	"cmp"
	"maps"
	"math"
	"slices"

	"github.com/splendor-rl/splendor/encoding/wire"
	"github.com/vmihailenco/msgpack/v5"
)

// The fuzzer's make options, drawn from hello's env_options so that an
// option added later is fuzzed too, and its frames that are not well-formed
// requests at all.

// fuzzBotOptions are bot names the bots option takes; only random and
// greedy cannot make a make fail (a search over max_search_iterations, a
// network the table size lacks).
var fuzzBotOptions = []string{"random", "greedy", "mcts:4", "mcts:iterations=2,rollout=random", "baseline", "baseline+search:2"}

// fuzzMaxRounds are the turn limits the fuzzer makes tables with.
var fuzzMaxRounds = []int{100, 100, 100, 100, 5, 5, 2, 1}

// options puts a few of an env's options into m. simple is false when a
// valid make may still be refused.
func (d *draw) options(m msg, specs []wire.OptionSpec) (simple, bad bool) {
	chosen := map[int]bool{}
	for range d.pick(4) {
		chosen[d.pick(len(specs)+1)] = true
	}
	if len(chosen) == 0 {
		return true, false
	}
	opts, players := msg{}, 2
	m["options"], simple = opts, true
	if chosen[len(specs)] {
		opts["colour"], bad = "blue", true // no such option
	}
	for i, spec := range specs {
		if !chosen[i] {
			continue
		}
		v, ok, refused := d.optionValue(spec, players)
		opts[spec.Name], simple, bad = v, simple && ok, bad || refused
		if spec.Name != "players" {
			continue
		}
		switch p := v.(type) { // an integral float counts as its integer
		case int:
			players = p
		case float64:
			players = int(p)
		}
	}
	return simple, bad
}

// optionValue is a value of one option for a table of players seats:
// valid (and ok when it cannot make a make fail) or refused.
func (d *draw) optionValue(spec wire.OptionSpec, players int) (v any, ok, bad bool) {
	k, bad := d.choose(256, 3)
	if bad {
		return badOption(k, spec, players), false, true
	}
	switch {
	case spec.Name == "seat":
		return k%(players+1) - 1, true, false
	case spec.Name == "max_rounds": // short games sometimes, to see them end
		return fuzzMaxRounds[k%len(fuzzMaxRounds)], true, false
	case spec.Type == "int":
		lo, hi := *spec.Min, *spec.Max
		n := lo + k%min(hi-lo+1, 4)
		if k >= 128 { // integral floats are integers too
			return float64(n), true, false
		}
		return n, true, false
	case spec.Type == "str":
		return spec.Choices[k%len(spec.Choices)], true, false
	}
	return d.botsValue(k, players)
}

// botsValue is one bot name for every seat, or a list of one per seat.
func (d *draw) botsValue(k, players int) (v any, ok, bad bool) {
	name := func() string { return fuzzBotOptions[d.pick(len(fuzzBotOptions))] }
	if k%2 == 0 {
		n := name()
		return n, n == "random" || n == "greedy", false
	}
	list, ok := make([]any, players), true
	for i := range list {
		n := name()
		list[i], ok = n, ok && (n == "random" || n == "greedy")
	}
	return list, ok, false
}

// badOption is a value of spec the make must refuse: of the wrong type,
// out of range, or a list of the wrong length.
func badOption(k int, spec wire.OptionSpec, players int) any {
	switch {
	case k == 0 && spec.Type == "int":
		return "2"
	case k == 0:
		return 7
	case spec.Name == "seat":
		return players
	case spec.Type == "int" && k == 1:
		return *spec.Max + 1
	case spec.Type == "int":
		return 2.5
	case spec.Type == "str":
		return "nope"
	case k == 1:
		return make([]any, players+1)
	}
	return "mcts:0"
}

// genFrame is a frame that is no well-formed request: cut short, a text
// message, an unknown op or field, a field of another op, no op, nesting
// too deep, an ext type, bytes after the map, a negative id, not a map;
// or (k 10) a hello with the largest id, which is fine.
func (s *fuzzSession) genFrame(d *draw) *sentRequest {
	k := d.pick(12)
	s.nextID++
	r := &sentRequest{id: s.nextID, op: "frame", expect: mustFail}
	hello := encodeRequest(msg{"id": r.id, "op": "hello"})
	switch k {
	case 0:
		frame := encodeRequest(msg{"id": r.id, "op": "get_state", "handle": 1, "env_ids": []int{0}})
		r.frame, r.anyID = frame[:1+d.pick(len(frame)-1)], true
	case 1:
		r.frame, r.text, r.anyID = hello, true, true
	case 2:
		r.frame = encodeRequest(msg{"id": r.id, "op": "jump"})
	case 3:
		r.frame = encodeRequest(msg{"id": r.id, "op": "reset", "handle": 1, "seed": 3})
	case 4:
		r.frame = encodeRequest(msg{"id": r.id})
	case 5:
		r.frame, r.anyID = encodeRequest(msg{"id": r.id, "op": "hello", "token": nested(40)}), true
	case 6:
		r.frame, r.anyID = append(hello[:len(hello):len(hello)], 0xd4, 0x01, 0x00, 0xc0), true
		r.frame[0]++ // one entry more: an ext key, a nil value
	case 7:
		r.frame, r.anyID = append(hello, 0xc0), true
	case 8:
		r.frame, r.anyID, r.id = encodeRequest(msg{"id": -1, "op": "hello"}), true, 0
	case 9:
		r.frame, r.anyID = encodeRequest([]any{r.id, "hello"}), true
	case 10:
		r.id = math.MaxUint64
		r.frame, r.op, r.expect = encodeRequest(msg{"id": r.id, "op": "hello"}), "hello", mustSucceed
	case 11:
		r.frame = encodeRequest(msg{"id": r.id, "op": ""})
	}
	return r
}

// nested is a list nested n deep.
func nested(n int) any {
	var v any = []any{}
	for range n {
		v = []any{v}
	}
	return v
}

// encodeRequest is v in msgpack, a map with id and op first and the other
// keys sorted (nested maps too), so that a fuzz input always sends the
// same bytes and a field that fails to decode comes after the id.
func encodeRequest(v any) []byte {
	var buf bytes.Buffer
	enc := msgpack.NewEncoder(&buf)
	enc.SetSortMapKeys(true)
	m, isMap := v.(msg)
	if !isMap {
		must(enc.Encode(v))
		return buf.Bytes()
	}
	keys := slices.Sorted(maps.Keys(m))
	slices.SortStableFunc(keys, func(a, b string) int { return cmp.Compare(keyRank(a), keyRank(b)) })
	must(enc.EncodeMapLen(len(keys)))
	for _, k := range keys {
		must(enc.EncodeString(k))
		must(enc.Encode(m[k]))
	}
	return buf.Bytes()
}

// must panics on an error encoding the fuzzer's own values, which always
// encode.
func must(err error) {
	if err != nil {
		panic(err)
	}
}
