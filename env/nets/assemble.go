package nets

import (
	"errors"
	"fmt"
	"maps"
	"slices"
)

// shapeRule is the shape a tensor of the format must have, and why.
type shapeRule struct {
	name string
	dims []int
	why  string
}

// assemble checks that the tensors are exactly the format's (pvnet's
// state_dict), with shapes that chain from the observation to the heads, and
// lays them out for evaluation.
func assemble(t map[string]tensor) (*Net, error) {
	layers := 0
	for has(t, fmt.Sprintf("trunk.%d.weight", layers)) {
		layers++
	}
	if layers == 0 {
		return nil, errors.New("no trunk layers (no tensor trunk.0.weight)")
	}
	obs, hidden, actions, values := dim(t, "scale"), dim(t, "trunk.0.weight"), dim(t, "policy.weight"), dim(t, "value.weight")
	if err := checkShapes(t, shapeRules(layers, obs, hidden, actions, values)); err != nil {
		return nil, err
	}
	if values > MaxValues {
		return nil, fmt.Errorf("value.weight: %d values, more than one per seat of a %d-seat table", values, MaxValues)
	}
	n := &Net{scale: t["scale"].values, values: values}
	for i := range layers {
		w, b := t[fmt.Sprintf("trunk.%d.weight", i)], t[fmt.Sprintf("trunk.%d.bias", i)]
		n.trunk = append(n.trunk, byColumns(w.values, b.values, w.shape[1]))
	}
	n.head = byColumns(slices.Concat(t["policy.weight"].values, t["value.weight"].values),
		slices.Concat(t["policy.bias"].values, t["value.bias"].values), hidden)
	return n, nil
}

// shapeRules lists every tensor of a net of these sizes, in the order of
// the network: the first missing one reported is the earliest.
func shapeRules(layers, obs, hidden, actions, values int) []shapeRule {
	rules := []shapeRule{{"scale", []int{obs}, "one factor per feature"}}
	in, from := obs, fmt.Sprintf("its inputs are the %d features of scale", obs)
	for i := range layers {
		why := from
		if i > 0 {
			why += fmt.Sprintf("; every trunk layer is %d wide, as trunk.0", hidden)
		}
		rules = append(rules,
			shapeRule{fmt.Sprintf("trunk.%d.weight", i), []int{hidden, in}, why},
			shapeRule{fmt.Sprintf("trunk.%d.bias", i), []int{hidden}, "one per output of its weight"})
		in, from = hidden, fmt.Sprintf("its inputs are trunk.%d's %d outputs", i, hidden)
	}
	return append(rules,
		shapeRule{"policy.weight", []int{actions, hidden}, from},
		shapeRule{"policy.bias", []int{actions}, "one per action of policy.weight"},
		shapeRule{"value.weight", []int{max(values, 1), hidden}, "one value or one per seat, " + from},
		shapeRule{"value.bias", []int{max(values, 1)}, "one per value of value.weight"})
}

// checkShapes reports the first missing tensor, then the first unexpected
// one (pvnet.load would refuse it too), then the first wrong shape.
func checkShapes(t map[string]tensor, rules []shapeRule) error {
	want := make(map[string]bool, len(rules))
	for _, r := range rules {
		if !has(t, r.name) {
			return fmt.Errorf("missing tensor %s", r.name)
		}
		want[r.name] = true
	}
	for _, name := range slices.Sorted(maps.Keys(t)) {
		if !want[name] {
			return fmt.Errorf("unexpected tensor %s", name)
		}
	}
	for _, r := range rules {
		if got := t[r.name].shape; !slices.Equal(got, r.dims) {
			return fmt.Errorf("%s: shape %v, want %v (%s)", r.name, got, r.dims, r.why)
		}
	}
	return nil
}

// byColumns lays out a layer whose weights come row by row ([out][in], as
// torch stores them) with its columns contiguous instead.
func byColumns(rows, bias []float32, in int) layer {
	out := len(bias)
	l := layer{out: out, columns: make([]float32, len(rows)), bias: bias}
	for o := range out {
		for j := range in {
			l.columns[j*out+o] = rows[o*in+j]
		}
	}
	return l
}

func has(t map[string]tensor, name string) bool {
	_, ok := t[name]
	return ok
}

// dim is a tensor's first dimension, or 0 when it has none: checkShapes then
// refuses the tensor for its shape.
func dim(t map[string]tensor, name string) int {
	if s := t[name].shape; len(s) > 0 {
		return s[0]
	}
	return 0
}
