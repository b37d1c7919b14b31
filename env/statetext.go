package env

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Numbers in state texts, written exactly and read strictly (errors wrap
// ErrBadState): the Vector's rows and the games' bookkeeping.

// FloatBits writes float32s exactly, as hex bits.
func FloatBits(fs []float32) string {
	parts := make([]string, len(fs))
	for i, f := range fs {
		parts[i] = strconv.FormatUint(uint64(math.Float32bits(f)), 16)
	}
	return strings.Join(parts, ",")
}

// ParseFloatBits reads n float32s written by FloatBits; errors wrap ErrBadState.
func ParseFloatBits(text string, n int) ([]float32, error) {
	bits, err := ParseHex(text, n)
	if err != nil {
		return nil, err
	}
	out := make([]float32, n)
	for i, b := range bits {
		f := math.Float32frombits(uint32(b))
		if b > math.MaxUint32 || math.IsNaN(float64(f)) || math.IsInf(float64(f), 0) {
			return nil, fmt.Errorf("%w: %x is not a finite float32", ErrBadState, b)
		}
		out[i] = f
	}
	return out, nil
}

// ParseHex reads exactly n comma-separated hex numbers.
func ParseHex(text string, n int) ([]uint64, error) {
	parts := strings.Split(text, ",")
	if len(parts) != n {
		return nil, fmt.Errorf("%w: %d values where %d were expected", ErrBadState, len(parts), n)
	}
	out := make([]uint64, n)
	for i, p := range parts {
		v, err := strconv.ParseUint(p, 16, 64)
		if err != nil {
			return nil, fmt.Errorf("%w: %q is not a hex number", ErrBadState, p)
		}
		out[i] = v
	}
	return out, nil
}
