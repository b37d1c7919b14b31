package env

import "slices"

// Block is a named part of one seat's observation, so that a network can
// find the table's cards, nobles and hands without copying offsets (after
// OpenSpiel's tensor layouts, with strides because a seat's hand sits
// inside its seat block): value (i, j, …, f) of the block is observation
// value Offset + i·Strides[0] + j·Strides[1] + … + f·Strides[last], and the
// last axis is one row, whose values Fields names in order. Every value of
// an observation belongs to exactly one block.
type Block struct {
	Name    string
	Offset  int
	Shape   []int
	Strides []int
	Fields  []string
}

// Rows is a block of rows stored one after another (rows may be several
// axes, as [levels, slots]); no rows: a single row of fields.
func Rows(name string, offset int, fields []string, rows ...int) Block {
	shape := append(slices.Clone(rows), len(fields))
	strides := make([]int, len(shape))
	step := 1
	for i := len(shape) - 1; i >= 0; i-- {
		strides[i] = step
		step *= shape[i]
	}
	return Block{Name: name, Offset: offset, Shape: shape, Strides: strides, Fields: fields}
}

// Every repeats b count times, stride values apart (one copy per seat
// block): a new first axis.
func (b Block) Every(count, stride int) Block {
	b.Shape = append([]int{count}, b.Shape...)
	b.Strides = append([]int{stride}, b.Strides...)
	return b
}

// Shifted is blocks moved by offset (the derived block after the
// observation).
func Shifted(blocks []Block, offset int) []Block {
	out := slices.Clone(blocks)
	for i := range out {
		out[i].Offset += offset
	}
	return out
}

// Indices lists the block's observation indices in row-major order of its
// shape.
func (b Block) Indices() []int {
	out := []int{b.Offset}
	for axis, n := range b.Shape {
		next := make([]int, 0, len(out)*n)
		for _, at := range out {
			for i := range n {
				next = append(next, at+i*b.Strides[axis])
			}
		}
		out = next
	}
	return out
}

// Named is n fields, each prefix and name(i) (cost_white, cost_blue…).
func Named(prefix string, n int, name func(i int) string) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = prefix + name(i)
	}
	return out
}

// Block is the layout's block called name.
func (s *Spec) Block(name string) (Block, bool) {
	i := slices.IndexFunc(s.Layout, func(b Block) bool { return b.Name == name })
	if i < 0 {
		return Block{}, false
	}
	return s.Layout[i], true
}

// At is the observation index of field in the row at index (one index per
// axis before the row's); −1 when the block has no such field or row.
func (b Block) At(field string, index ...int) int {
	f := slices.Index(b.Fields, field)
	if f < 0 || len(index) != len(b.Shape)-1 {
		return -1
	}
	at := b.Offset + f*b.Strides[len(index)]
	for axis, i := range index {
		if i < 0 || i >= b.Shape[axis] {
			return -1
		}
		at += i * b.Strides[axis]
	}
	return at
}
