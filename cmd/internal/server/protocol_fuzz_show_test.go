package server

import (
	"encoding/binary"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
)

// How the fuzzer writes requests and replies into a failure's transcript,
// and reads the loosely decoded values of replies.

// show writes v on one line: maps with id and op first, tensors as
// dtype[shape] with their values (a long one as its nonzero entries), long
// strings and lists cut short.
func show(v any) string {
	switch x := v.(type) {
	case msg:
		if _, ok := x["dtype"]; ok && len(x) == 3 {
			return showTensor(x)
		}
		return showMap(x)
	case string:
		if len(x) > 72 {
			return fmt.Sprintf("%q…(%d bytes)", x[:72], len(x))
		}
		return fmt.Sprintf("%q", x)
	case []byte:
		return fmt.Sprintf("bin[% x]", x[:min(len(x), 32)])
	case float64: // a float that holds an integer is shown as one (2.0)
		return strconv.FormatFloat(x, 'g', -1, 64) + map[bool]string{true: ".0"}[x == math.Trunc(x) && math.Abs(x) < 1e21]
	case nil:
		return "nil"
	}
	if rv := reflect.ValueOf(v); rv.Kind() == reflect.Slice {
		return showList(rv)
	}
	return fmt.Sprint(v)
}

func showMap(m msg) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b string) int { return strings.Compare(keyRank(a)+a, keyRank(b)+b) })
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + ": " + show(m[k])
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

// keyRank puts id, op and handle first.
func keyRank(key string) string {
	if i := slices.Index([]string{"id", "op", "handle"}, key); i >= 0 {
		return fmt.Sprint(i)
	}
	return "9"
}

func showList(rv reflect.Value) string {
	n := rv.Len()
	parts := make([]string, 0, min(n, 12))
	for i := range min(n, 12) {
		parts = append(parts, show(rv.Index(i).Interface()))
	}
	if n > 12 {
		parts = append(parts, fmt.Sprintf("…(%d in all)", n))
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// showTensor writes a tensor's values: all of a short one, the nonzero
// entries (flat index: value) of a long one.
func showTensor(t msg) string {
	dtype, shape := strOf(t["dtype"]), intsOf(t["shape"])
	data, _ := t["data"].([]byte)
	values := tensorValues(dtype, data)
	head := fmt.Sprintf("%s%v", dtype, shape)
	if values == nil {
		return fmt.Sprintf("%s{%d bytes}", head, len(data))
	}
	if len(values) <= 12 {
		return head + "{" + strings.Join(values, ", ") + "}"
	}
	var nonzero []string
	for i, v := range values {
		if v != "0" {
			nonzero = append(nonzero, fmt.Sprintf("%d:%s", i, v))
		}
	}
	if len(nonzero) > 16 {
		nonzero = append(nonzero[:16], fmt.Sprintf("…(%d nonzero)", len(nonzero)))
	}
	return head + "{" + strings.Join(nonzero, " ") + "}"
}

// tensorValues are a tensor's elements as text; nil for a dtype the fuzzer
// does not read or data of the wrong length.
func tensorValues(dtype string, data []byte) []string {
	var out []string
	switch dtype {
	case "uint8", "bool":
		for _, x := range data {
			out = append(out, fmt.Sprint(x))
		}
	case "int32":
		for _, x := range decodeInt32s(data) {
			out = append(out, fmt.Sprint(x))
		}
	case "int64":
		for i := 0; i+8 <= len(data); i += 8 {
			out = append(out, fmt.Sprint(int64(binary.LittleEndian.Uint64(data[i:]))))
		}
	case "float32":
		for _, x := range decodeFloat32s(data) {
			out = append(out, fmt.Sprintf("%.4g", x))
		}
	}
	if size := map[string]int{"int32": 4, "float32": 4, "int64": 8}[dtype]; size > 0 && len(data)%size != 0 {
		return nil
	}
	return out
}

func (r *sentRequest) String() string {
	if r.m != nil {
		return show(r.m)
	}
	kind := "binary"
	if r.text {
		kind = "text"
	}
	return fmt.Sprintf("a %s frame of %d bytes: % x", kind, len(r.frame), r.frame[:min(len(r.frame), 48)])
}

// Decoded reply values: integers of any Go integer type, the smallest that
// holds them.

func uintOf(v any) (uint64, bool) {
	switch rv := reflect.ValueOf(v); {
	case rv.CanUint():
		return rv.Uint(), true
	case rv.CanInt():
		return uint64(rv.Int()), rv.Int() >= 0
	}
	return 0, false
}

func intOf(v any) int {
	switch rv := reflect.ValueOf(v); {
	case rv.CanUint():
		return int(min(rv.Uint(), math.MaxInt32))
	case rv.CanInt():
		return int(rv.Int())
	}
	return -1
}

func strOf(v any) string {
	s, _ := v.(string)
	return s
}

func listOf(v any) []any {
	l, _ := v.([]any)
	return l
}

func intsOf(v any) []int {
	if ints, ok := v.([]int); ok { // a request's
		return ints
	}
	var out []int
	for _, x := range listOf(v) {
		out = append(out, intOf(x))
	}
	return out
}

func floatsOf(v any) []float64 {
	var out []float64
	for _, x := range listOf(v) {
		rv := reflect.ValueOf(x)
		if !rv.CanFloat() {
			return nil
		}
		out = append(out, rv.Float())
	}
	return out
}

func stringsOf(v any) []string {
	var out []string
	for _, x := range listOf(v) {
		out = append(out, strOf(x))
	}
	return out
}

func containsAll(list any, want []string) bool {
	have := stringsOf(list)
	for _, w := range want {
		if !slices.Contains(have, w) {
			return false
		}
	}
	return true
}
