package env

import (
	"fmt"
	"math"
	"reflect"
	"slices"
	"sort"

	"github.com/splendor-rl/splendor/env/bots"
	"github.com/splendor-rl/splendor/internal/quote"
)

// Options are an env's settings as a client sends them (decoded from the
// wire: numbers may arrive as any integer or float type).
type Options map[string]any

// OptionReader reads Options with defaults and ranges, remembering which keys
// were read so that Check can refuse unknown ones (a misspelt option must not
// be silently ignored in a reproducible experiment), what each read means
// (Described, so that clients can learn an env's options before making it)
// and the value each took (Applied, echoed to the client).
type OptionReader struct {
	opts      Options
	read      map[string]bool
	err       error
	described []OptionSpec
	applied   Options
}

// OptionSpec describes one option: its type, default and allowed values.
type OptionSpec struct {
	Name    string
	Type    string // "int", "float", "bool", "str", or "str or list" (one string for every item, or a list of Length)
	Default any
	Min     int      // "int": the range [Min, Max] (for the default values of the options read before it)
	Max     int      //
	Choices []string // "str" and "str or list": the allowed strings
	Length  int      // "str or list": the list's length (for the default values of the options read before it)
}

// NewOptionReader reads opts (nil means all defaults).
func NewOptionReader(opts Options) *OptionReader {
	return &OptionReader{opts: opts, read: map[string]bool{}, applied: Options{}}
}

// Described lists the options read, in the order they were read.
func (o *OptionReader) Described() []OptionSpec { return o.described }

// Applied is the value every option read took, defaults included.
func (o *OptionReader) Applied() Options { return o.applied }

func (o *OptionReader) note(spec OptionSpec, value any) {
	o.read[spec.Name] = true
	o.described = append(o.described, spec)
	o.applied[spec.Name] = value
}

// Refuse makes err the error of option key, unless an earlier one is: for
// a value the game refuses after reading it (a baseline bot where it has
// no network).
func (o *OptionReader) Refuse(key string, err error) { o.fail(key, "%v", err) }

func (o *OptionReader) fail(key, format string, args ...any) {
	if o.err == nil {
		o.err = fmt.Errorf("%w: %s: %s", ErrBadOption, key, fmt.Sprintf(format, args...))
	}
}

// Int reads an integer option in [lo, hi].
func (o *OptionReader) Int(key string, def, lo, hi int) (n int) {
	defer func() { o.note(OptionSpec{Name: key, Type: "int", Default: def, Min: lo, Max: hi}, n) }()
	v, ok := o.opts[key]
	if !ok || v == nil {
		return def
	}
	i, ok := asInt(v)
	if !ok || i < int64(lo) || i > int64(hi) {
		o.fail(key, "want an integer in [%d, %d], got %s", lo, hi, quote.Value(v))
		return def
	}
	return int(i)
}

// Float reads a number option in [lo, hi] (an integer counts).
func (o *OptionReader) Float(key string, def, lo, hi float64) (x float64) {
	defer func() { o.note(OptionSpec{Name: key, Type: "float", Default: def}, x) }()
	v, ok := o.opts[key]
	if !ok || v == nil {
		return def
	}
	x, ok = asFloat(v)
	if !ok || !(x >= lo && x <= hi) {
		o.fail(key, "want a number in [%v, %v], got %s", lo, hi, quote.Value(v))
		return def
	}
	return x
}

// Bool reads a true/false option.
func (o *OptionReader) Bool(key string, def bool) (b bool) {
	defer func() { o.note(OptionSpec{Name: key, Type: "bool", Default: def}, b) }()
	v, ok := o.opts[key]
	if !ok || v == nil {
		return def
	}
	if b, ok = v.(bool); !ok {
		o.fail(key, "want true or false, got %s", quote.Value(v))
		return def
	}
	return b
}

// String reads a string option that must be one of allowed.
func (o *OptionReader) String(key, def string, allowed ...string) (str string) {
	defer func() { o.note(OptionSpec{Name: key, Type: "str", Default: def, Choices: allowed}, str) }()
	v, ok := o.opts[key]
	if !ok || v == nil {
		return def
	}
	s, ok := v.(string)
	if !ok || !slices.Contains(allowed, s) {
		o.fail(key, "want one of %v, got %s", allowed, quote.Value(v))
		return def
	}
	return s
}

// Bots reads the built-in bots of n seats: one bot name (bots.Parse) for
// every seat, or a list of n names; "random" by default.
func (o *OptionReader) Bots(key string, n int) []bots.Spec {
	names := make([]string, n)
	specs := make([]bots.Spec, n)
	for i := range names {
		names[i] = bots.Names[bots.Random]
	}
	defer func() {
		o.note(OptionSpec{Name: key, Type: "str or list", Default: names[0], Choices: bots.Names, Length: n}, names)
	}()
	v, ok := o.opts[key]
	if !ok || v == nil {
		return specs
	}
	if s, ok := v.(string); ok {
		v = repeat(s, n)
	}
	list, ok := v.([]any)
	if !ok || len(list) != n {
		o.fail(key, "want a string or a list of %d strings, got %s", n, quote.Value(v))
		return specs
	}
	for i, item := range list {
		s, _ := item.(string)
		spec, err := bots.Parse(s)
		if err != nil {
			o.fail(key, "item %d: %v", i, err)
			return specs
		}
		names[i], specs[i] = s, spec
	}
	return specs
}

func repeat(s string, n int) []any {
	list := make([]any, n)
	for i := range list {
		list[i] = s
	}
	return list
}

// Check returns the first bad value read, or an error naming the options
// that no reader asked for.
func (o *OptionReader) Check() error {
	if o.err != nil {
		return o.err
	}
	var unknown []string
	for k := range o.opts {
		if !o.read[k] {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		return fmt.Errorf("%w: unknown option(s) %s", ErrBadOption, quote.Strings(unknown))
	}
	return nil
}

// asFloat is v as a number, when it is one: an integer of any Go type or a
// float.
func asFloat(v any) (float64, bool) {
	switch n := reflect.ValueOf(v); n.Kind() {
	case reflect.Float32, reflect.Float64:
		return n.Float(), true
	}
	i, ok := asInt(v)
	return float64(i), ok
}

// asInt is v as a whole number, when it is one: an integer of any Go type
// (the wire's decoders pick the narrowest), or a float with no fraction.
func asInt(v any) (int64, bool) {
	switch n := reflect.ValueOf(v); n.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return n.Int(), true
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return int64(n.Uint()), n.Uint() <= math.MaxInt64
	case reflect.Float32, reflect.Float64:
		f := n.Float()
		return int64(f), f == math.Trunc(f) && math.Abs(f) < 1<<53
	}
	return 0, false
}
