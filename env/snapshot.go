package env

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/splendor-rl/splendor/internal/rng"
)

// Bookkeeping is what a game's env keeps beside its rules state, shared by
// both games' Snapshot and Restore: the seating, each seat's bot stream, the
// rewards of the last step and the shaping potentials. Its fields point into
// the env, so Parse loads them in place.
type Bookkeeping struct {
	Seating   *Seating
	Bots      []rng.Rand
	Rewards   []float32
	Potential []float32
}

// String writes "me=M last=L truncated=T bots=hex,… rewards=bits,… potential=bits,…".
func (b Bookkeeping) String() string {
	bots := make([]string, len(b.Bots))
	for i, r := range b.Bots {
		bots[i] = strconv.FormatUint(r.State(), 16)
	}
	return fmt.Sprintf("me=%d last=%d truncated=%d bots=%s rewards=%s potential=%s", b.Seating.Me,
		b.Seating.LastActor, btoi(b.Seating.Truncated), strings.Join(bots, ","), floatBits(b.Rewards),
		floatBits(b.Potential))
}

// Parse reads what String wrote, for players seats, into b's fields; on
// error (wrapping ErrBadState) it changes nothing.
func (b Bookkeeping) Parse(text string, players int) error {
	var me, last, trunc int
	var bots, rewards, potential string
	n, err := fmt.Sscanf(text, "me=%d last=%d truncated=%d bots=%s rewards=%s potential=%s",
		&me, &last, &trunc, &bots, &rewards, &potential)
	if err != nil || n != 6 {
		return fmt.Errorf("%w: env fields: %v", ErrBadState, err)
	}
	if me < 0 || me >= players || last < 0 || last >= players || trunc < 0 || trunc > 1 {
		return fmt.Errorf("%w: me, last or truncated out of range", ErrBadState)
	}
	streams, err := parseHex(bots, players)
	if err != nil {
		return err
	}
	r, err := parseFloatBits(rewards, players)
	if err != nil {
		return err
	}
	p, err := parseFloatBits(potential, players)
	if err != nil {
		return err
	}
	b.Seating.Me, b.Seating.LastActor, b.Seating.Truncated = me, last, trunc == 1
	for i, s := range streams {
		b.Bots[i] = rng.New(s)
	}
	copy(b.Rewards, r)
	copy(b.Potential, p)
	return nil
}

// floatBits writes float32s exactly, as hex bits.
func floatBits(fs []float32) string {
	parts := make([]string, len(fs))
	for i, f := range fs {
		parts[i] = strconv.FormatUint(uint64(math.Float32bits(f)), 16)
	}
	return strings.Join(parts, ",")
}

func parseFloatBits(text string, n int) ([]float32, error) {
	bits, err := parseHex(text, n)
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

// parseHex reads exactly n comma-separated hex numbers.
func parseHex(text string, n int) ([]uint64, error) {
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
