package wire

import (
	"encoding/binary"
	"errors"
)

// maxDepth bounds nesting in a request: no request needs more than a few
// levels, and a deep one must not exhaust the decoder's stack.
const maxDepth = 32

var (
	errTruncated = errors.New("a length runs past the end of the frame")
	errTooDeep   = errors.New("nested deeper than 32 levels")
	errNeverUsed = errors.New("byte 0xc1 is not msgpack")
	errExt       = errors.New("msgpack extension types are not part of the protocol")
	errTrailing  = errors.New("bytes after the request map")
	errTooMany   = errors.New("more array items and map entries than any request of this server needs")
)

// scan checks that frame is exactly one msgpack value whose every declared
// length fits in the bytes that follow it, and that holds at most maxItems
// array items and map entries in all, before the decoder allocates by those
// lengths: a 14-byte frame must not make the server allocate gigabytes, nor
// a 16 MiB one of nils a gigabyte of interface values.
func scan(frame []byte, maxItems int) error {
	s := scanner{items: maxItems}
	rest, err := s.value(frame, 0)
	if err != nil {
		return err
	}
	if len(rest) != 0 {
		return errTrailing
	}
	return nil
}

// scanner skips values, counting down the items it may still meet.
type scanner struct{ items int }

// value skips one value and returns what follows it.
func (s *scanner) value(b []byte, depth int) ([]byte, error) {
	if depth > maxDepth {
		return nil, errTooDeep
	}
	if len(b) == 0 {
		return nil, errTruncated
	}
	code, b := b[0], b[1:]
	switch {
	case code <= 0x7f || code >= 0xe0 || code == 0xc0 || code == 0xc2 || code == 0xc3:
		return b, nil // fixint, nil, bool
	case code <= 0x8f:
		return s.skipItems(b, 2*int(code&0x0f), depth)
	case code <= 0x9f:
		return s.skipItems(b, int(code&0x0f), depth)
	case code <= 0xbf:
		return skip(b, int(code&0x1f))
	case code == 0xc1:
		return nil, errNeverUsed
	}
	return s.sized(code, b, depth)
}

// sized handles the codes whose size or count follows the code byte.
func (s *scanner) sized(code byte, b []byte, depth int) ([]byte, error) {
	switch code {
	case 0xc4, 0xd9: // bin8, str8
		return skipCounted(b, 1)
	case 0xc5, 0xda: // bin16, str16
		return skipCounted(b, 2)
	case 0xc6, 0xdb: // bin32, str32
		return skipCounted(b, 4)
	case 0xc7, 0xc8, 0xc9, 0xd4, 0xd5, 0xd6, 0xd7, 0xd8:
		// Extensions: the decoder reads some as containers of their own
		// (an ext's payload taken as a map header), so none is let through.
		return nil, errExt
	case 0xca, 0xcb: // float32, float64
		return skip(b, 4<<(code-0xca))
	case 0xcc, 0xcd, 0xce, 0xcf: // uint8–64
		return skip(b, 1<<(code-0xcc))
	case 0xd0, 0xd1, 0xd2, 0xd3: // int8–64
		return skip(b, 1<<(code-0xd0))
	case 0xdc, 0xdd: // array16/32
		n, b, err := count(b, 2<<(code-0xdc))
		if err != nil {
			return nil, err
		}
		return s.skipItems(b, n, depth)
	}
	// 0xde, 0xdf: map16/32, the only codes left
	n, b, err := count(b, 2<<(code-0xde))
	if err != nil {
		return nil, err
	}
	return s.skipItems(b, 2*n, depth)
}

// skipItems skips n nested values; each takes at least a byte, so a count
// larger than what is left is refused before looping.
func (s *scanner) skipItems(b []byte, n, depth int) ([]byte, error) {
	if n > len(b) {
		return nil, errTruncated
	}
	if s.items -= n; s.items < 0 {
		return nil, errTooMany
	}
	var err error
	for i := 0; i < n; i++ {
		if b, err = s.value(b, depth+1); err != nil {
			return nil, err
		}
	}
	return b, nil
}

func skipCounted(b []byte, width int) ([]byte, error) {
	n, b, err := count(b, width)
	if err != nil {
		return nil, err
	}
	return skip(b, n)
}

// count reads a big-endian length of width bytes.
func count(b []byte, width int) (int, []byte, error) {
	if len(b) < width {
		return 0, nil, errTruncated
	}
	var n uint64
	switch width {
	case 1:
		n = uint64(b[0])
	case 2:
		n = uint64(binary.BigEndian.Uint16(b))
	default:
		n = uint64(binary.BigEndian.Uint32(b))
	}
	return int(n), b[width:], nil
}

func skip(b []byte, n int) ([]byte, error) {
	if n > len(b) {
		return nil, errTruncated
	}
	return b[n:], nil
}
