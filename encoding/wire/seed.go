package wire

import (
	"fmt"
	"math"

	"github.com/vmihailenco/msgpack/v5"
)

// Seed is a seed on the wire: any msgpack integer in [0, 2^64). A negative
// or non-integer value is refused with CodeBadSeed rather than wrapped.
type Seed uint64

// SeedError reports a value that is not a valid seed.
type SeedError struct{ Value any }

func (e *SeedError) Error() string {
	switch v := e.Value.(type) {
	case float32, float64:
		return fmt.Sprintf("seed %v is a float: send an integer in [0, 2^64)", v)
	case nil, bool, int64, uint64:
		return fmt.Sprintf("seed %v is not an integer in [0, 2^64)", v)
	}
	return fmt.Sprintf("a seed of type %T is not an integer in [0, 2^64)", e.Value)
}

// DecodeMsgpack accepts every msgpack integer encoding of a non-negative value.
func (s *Seed) DecodeMsgpack(d *msgpack.Decoder) error {
	v, err := d.DecodeInterfaceLoose()
	if err != nil {
		return err
	}
	switch n := v.(type) {
	case uint64:
		*s = Seed(n)
		return nil
	case int64:
		if n >= 0 {
			*s = Seed(n)
			return nil
		}
	}
	return &SeedError{Value: v}
}

// EncodeMsgpack writes the seed as an unsigned integer.
func (s Seed) EncodeMsgpack(e *msgpack.Encoder) error {
	return e.EncodeUint(uint64(s))
}

// Seeds is a list of seeds; unlike a plain []Seed it refuses nil items, which
// the msgpack decoder would otherwise turn into seed 0 without asking Seed.
type Seeds []Seed

// DecodeMsgpack reads an array of seeds (nil stays a nil list).
func (s *Seeds) DecodeMsgpack(d *msgpack.Decoder) error {
	return decodeList(d, (*[]Seed)(s), func(_ int, seed *Seed) error { return seed.DecodeMsgpack(d) })
}

// EnvIDs is a list of env indices; unlike a plain []int it refuses nil and
// non-integer items, which the decoder would otherwise turn into env 0.
type EnvIDs []int

// DecodeMsgpack reads an array of integers (nil stays a nil list).
func (ids *EnvIDs) DecodeMsgpack(d *msgpack.Decoder) error {
	return decodeList(d, (*[]int)(ids), func(i int, id *int) error {
		v, err := d.DecodeInterfaceLoose()
		if err != nil {
			return err
		}
		switch n := v.(type) {
		case int64:
			*id = int(n)
		case uint64: // past every env index; the env refuses it as out of range
			*id = int(min(n, math.MaxInt32))
		default:
			return fmt.Errorf("env_ids item %d is %T, not an integer", i, v)
		}
		return nil
	})
}

// decodeList reads an array into *list, each item with item; a nil array
// stays a nil list.
func decodeList[T any](d *msgpack.Decoder, list *[]T, item func(i int, x *T) error) error {
	n, err := d.DecodeArrayLen()
	if err != nil || n < 0 {
		*list = nil
		return err
	}
	items := make([]T, n)
	for i := range items {
		if err := item(i, &items[i]); err != nil {
			return err
		}
	}
	*list = items
	return nil
}
