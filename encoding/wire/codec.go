package wire

import (
	"bytes"
	"errors"

	"github.com/vmihailenco/msgpack/v5"
)

// Codec decodes requests and encodes replies for one connection, reusing its
// buffers (it is not safe for concurrent use).
type Codec struct {
	reader bytes.Reader
	dec    *msgpack.Decoder
	buf    bytes.Buffer
	enc    *msgpack.Encoder
}

// NewCodec returns a codec with strict decoding: unknown request fields are
// refused, since a misspelt field must not be silently ignored.
func NewCodec() *Codec {
	c := &Codec{}
	c.dec = msgpack.NewDecoder(&c.reader)
	c.dec.DisallowUnknownFields(true)
	c.enc = msgpack.NewEncoder(&c.buf)
	c.enc.SetSortMapKeys(true)
	c.enc.UseCompactInts(true)
	return c
}

// DecodeRequest reads one frame into req (reset first). A frame that is not
// one msgpack map of the documented fields gives CodeBadRequest, a bad seed
// CodeBadSeed; req.ID is set whenever the frame got that far, so the error
// reply can carry it.
func (c *Codec) DecodeRequest(frame []byte, req *Request) *Error {
	*req = Request{}
	c.reader.Reset(frame)
	c.dec.ResetReader(&c.reader)
	if err := c.dec.Decode(req); err != nil {
		var seedErr *SeedError
		if errors.As(err, &seedErr) {
			return Errorf(CodeBadSeed, "%v", seedErr)
		}
		return Errorf(CodeBadRequest, "malformed request: %v", err)
	}
	if c.reader.Len() != 0 {
		return Errorf(CodeBadRequest, "%d bytes after the request map", c.reader.Len())
	}
	if req.Op == "" {
		return Errorf(CodeBadRequest, "missing op")
	}
	return nil
}

// Encode writes v as one msgpack frame. The returned bytes are valid until
// the next call.
func (c *Codec) Encode(v any) ([]byte, error) {
	c.buf.Reset()
	if err := c.enc.Encode(v); err != nil {
		return nil, err
	}
	return c.buf.Bytes(), nil
}
