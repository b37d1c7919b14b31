package wire

import (
	"bytes"
	"errors"

	"github.com/vmihailenco/msgpack/v5"
)

// Codec decodes requests and encodes replies for one connection, reusing its
// decoder and encoder (it is not safe for concurrent use).
type Codec struct {
	reader bytes.Reader
	dec    *msgpack.Decoder
	enc    *msgpack.Encoder
	// MaxItems bounds the array items and map entries (key and value count
	// one each) of a request, checked before decoding allocates for them.
	MaxItems int
}

// DefaultMaxItems lets through seeds and env_ids for 65,536 envs each, with
// room for options.
const DefaultMaxItems = 2<<16 + 1024

// NewCodec returns a codec with strict decoding: unknown request fields are
// refused, since a misspelt field must not be silently ignored.
func NewCodec() *Codec {
	c := &Codec{MaxItems: DefaultMaxItems}
	c.dec = msgpack.NewDecoder(&c.reader)
	c.dec.DisallowUnknownFields(true)
	c.enc = msgpack.NewEncoder(nil)
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
	if err := scan(frame, c.MaxItems); err != nil {
		return Errorf(CodeBadRequest, "malformed request: %v", err)
	}
	c.reader.Reset(frame)
	c.dec.ResetReader(&c.reader)
	if err := c.dec.Decode(req); err != nil {
		var seedErr *SeedError
		if errors.As(err, &seedErr) {
			return Errorf(CodeBadSeed, "%v", seedErr)
		}
		return Errorf(CodeBadRequest, "malformed request: %v", err)
	}
	if req.Op == "" {
		return Errorf(CodeBadRequest, "missing op")
	}
	return req.checkFields()
}

// Encode writes v as one msgpack frame into dst, replacing its contents.
func (c *Codec) Encode(dst *bytes.Buffer, v any) error {
	dst.Reset()
	c.enc.ResetWriter(dst)
	return c.enc.Encode(v)
}

// DecodeReply reads a reply frame: a failed request's error is returned as
// *Error; otherwise the frame is decoded into v (unknown fields ignored, so
// that older clients read newer replies). Only a two-entry map can be an
// error reply, so a batch reply is decoded once.
func DecodeReply(frame []byte, v any) error {
	if len(frame) > 0 && frame[0] == 0x82 {
		var head struct {
			Error *Error `msgpack:"error"`
		}
		if err := msgpack.Unmarshal(frame, &head); err != nil {
			return err
		}
		if head.Error != nil {
			return head.Error
		}
	}
	return msgpack.Unmarshal(frame, v)
}
