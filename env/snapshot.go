package env

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/splendor-rl/splendor/internal/rng"
)

// Bookkeeping is what a game's env keeps beside its rules state, shared by
// both games' Snapshot and Restore: the seating of the episode, each seat's
// bot stream, the rewards of the last step and the shaping potentials.
type Bookkeeping struct {
	Me, LastActor int
	Truncated     bool
	Bots          []uint64 // each seat's bot stream (rng.Rand.State)
	Rewards       []float32
	Potential     []float32
}

// String writes "me=M last=L truncated=T bots=hex,… rewards=bits,… potential=bits,…".
func (b Bookkeeping) String() string {
	bots := make([]string, len(b.Bots))
	for i, r := range b.Bots {
		bots[i] = strconv.FormatUint(r, 16)
	}
	return fmt.Sprintf("me=%d last=%d truncated=%d bots=%s rewards=%s potential=%s", b.Me, b.LastActor,
		btoi(b.Truncated), strings.Join(bots, ","), floatBits(b.Rewards), floatBits(b.Potential))
}

// ParseBookkeeping reads what String wrote, for players seats; errors wrap
// ErrBadState.
func ParseBookkeeping(text string, players int) (Bookkeeping, error) {
	var b Bookkeeping
	var trunc int
	var bots, rewards, potential string
	n, err := fmt.Sscanf(text, "me=%d last=%d truncated=%d bots=%s rewards=%s potential=%s",
		&b.Me, &b.LastActor, &trunc, &bots, &rewards, &potential)
	if err != nil || n != 6 || len(strings.Fields(text)) != 6 {
		return b, fmt.Errorf("%w: env fields: want exactly me, last, truncated, bots, rewards, potential", ErrBadState)
	}
	if b.Me < 0 || b.Me >= players || b.LastActor < 0 || b.LastActor >= players || trunc < 0 || trunc > 1 {
		return b, fmt.Errorf("%w: me, last or truncated out of range", ErrBadState)
	}
	b.Truncated = trunc == 1
	if b.Bots, err = parseHex(bots, players); err != nil {
		return b, err
	}
	if b.Rewards, err = parseFloatBits(rewards, players); err != nil {
		return b, err
	}
	b.Potential, err = parseFloatBits(potential, players)
	return b, err
}

// Kept points at what a game's env keeps beside its rules state, so that
// both games' Snapshot and Restore are written once (WriteSnapshot,
// ReadSnapshot, Load).
type Kept struct {
	Seats     *Seating
	Bots      []*rng.Rand // each seat's bot stream
	Rewards   []float32
	Potential []float32
}

// book reads the kept values.
func (k Kept) book() Bookkeeping {
	b := Bookkeeping{Me: k.Seats.Me, LastActor: k.Seats.LastActor, Truncated: k.Seats.Truncated,
		Rewards: k.Rewards, Potential: k.Potential}
	for _, r := range k.Bots {
		b.Bots = append(b.Bots, r.State())
	}
	return b
}

// Load writes b into the kept values.
func (k Kept) Load(b Bookkeeping) {
	k.Seats.Me, k.Seats.LastActor, k.Seats.Truncated = b.Me, b.LastActor, b.Truncated
	for i, r := range b.Bots {
		*k.Bots[i] = rng.New(r)
	}
	copy(k.Rewards, b.Rewards)
	copy(k.Potential, b.Potential)
}

// WriteSnapshot is an env's whole state: its game's notation (hidden
// information included), " | ", its bookkeeping.
func WriteSnapshot(game string, k Kept) string { return game + " | " + k.book().String() }

// ReadSnapshot reads what WriteSnapshot wrote for a table of players seats;
// parse reads and checks the game. Errors wrap ErrBadState.
func ReadSnapshot[S any](text string, players int, parse func(string) (S, error)) (S, Bookkeeping, error) {
	var s S
	game, book, ok := strings.Cut(text, " | ")
	if !ok {
		return s, Bookkeeping{}, fmt.Errorf("%w: want the game, \" | \", then the env's fields", ErrBadState)
	}
	s, err := parse(game)
	if err != nil {
		return s, Bookkeeping{}, fmt.Errorf("%w: %v", ErrBadState, err)
	}
	b, err := ParseBookkeeping(book, players)
	return s, b, err
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
