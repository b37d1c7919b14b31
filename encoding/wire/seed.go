package wire

import (
	"fmt"

	"github.com/vmihailenco/msgpack/v5"
)

// Seed is a seed on the wire: any msgpack integer in [0, 2^64). A negative
// or non-integer value is refused with CodeBadSeed rather than wrapped.
type Seed uint64

// SeedError reports a value that is not a valid seed.
type SeedError struct{ Value any }

func (e *SeedError) Error() string {
	return fmt.Sprintf("seed %v is not an integer in [0, 2^64)", e.Value)
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
