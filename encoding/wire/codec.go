package wire

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"

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
	actions  Tensor // a plain step's actions (fast.go)
	shape    [1]int
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
	c.enc.SetCustomStructTag("json") // the view op's views are env-layer structs, named for JSON (docs/trace.md)
	return c
}

// DecodeRequest reads one frame into req (reset first). A frame that is not
// one msgpack map of the documented fields gives CodeBadRequest, a bad seed
// CodeBadSeed; req.ID is set whenever the frame got that far and the id is
// not refused itself (integers.go), so the error reply can carry it. A
// plain step is read without allocating (fast.go): its actions' data then
// views frame, so req is valid while frame is.
func (c *Codec) DecodeRequest(frame []byte, req *Request) *Error {
	*req = Request{}
	if c.decodeStep(frame, req) {
		return nil
	}
	return c.decodeFull(frame, req)
}

// decodeFull reads any request, checking it strictly.
func (c *Codec) decodeFull(frame []byte, req *Request) *Error {
	*req = Request{}
	if err := scan(frame, c.MaxItems); err != nil {
		return Errorf(CodeBadRequest, "malformed request: %v", err)
	}
	wrappedField, wrapped := checkIntegers(frame)
	c.reader.Reset(frame)
	c.dec.ResetReader(&c.reader)
	err := c.dec.Decode(req) // still run on a wrapped value, for the id of its reply
	c.reader.Reset(nil)      // the codec outlives the frame: it must not keep it
	if wrapped != nil {
		if wrappedField == "id" {
			req.ID = 0 // as decoded, a number the client never sent
		}
		return wrapped
	}
	if err != nil {
		var seedErr *SeedError
		if errors.As(err, &seedErr) {
			return Errorf(CodeBadSeed, "%v", seedErr)
		}
		return Errorf(CodeBadRequest, "malformed request: %s", plain(err))
	}
	if req.Op == "" {
		return Errorf(CodeBadRequest, "missing op")
	}
	return req.checkFields()
}

// Encode writes v as one msgpack frame into dst, replacing its contents.
func (c *Codec) Encode(dst *bytes.Buffer, v any) error {
	if e, ok := v.(*ErrorReply); ok {
		// Every error reply is encoded here, whoever wrote its message and
		// whatever it quotes: it leaves as at most 256 bytes of valid UTF-8.
		e.Error.Message = CleanMessage(e.Error.Message)
	}
	dst.Reset()
	c.enc.ResetWriter(dst)
	err := c.enc.Encode(v)
	c.enc.ResetWriter(nil) // nor the reply buffer, which its writer may let go of
	return err
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

// invalidCode is how the msgpack library reports a value of the wrong type.
var invalidCode = regexp.MustCompile(`invalid code=([0-9a-f]+) decoding (\w+)`)

// plain rewords a decoding error in the protocol's terms rather than the
// library's: "a float where an integer was expected", not "code=cb".
func plain(err error) string {
	msg := strings.TrimPrefix(err.Error(), "msgpack: ")
	m := invalidCode.FindStringSubmatch(msg)
	if m == nil {
		return msg
	}
	code, _ := strconv.ParseUint(m[1], 16, 8)
	return fmt.Sprintf("%s where %s was expected", kindOf(byte(code)), expected(m[2]))
}

// kindOf names the msgpack type a leading byte starts.
func kindOf(code byte) string {
	switch {
	case code <= 0x7f || code >= 0xe0 || (code >= 0xcc && code <= 0xd3):
		return "an integer"
	case code == 0xca || code == 0xcb:
		return "a float"
	case code == 0xc0:
		return "nil"
	case code == 0xc2 || code == 0xc3:
		return "a bool"
	case code <= 0x8f || code == 0xde || code == 0xdf:
		return "a map"
	case code <= 0x9f || code == 0xdc || code == 0xdd:
		return "an array"
	case code <= 0xbf || (code >= 0xd9 && code <= 0xdb):
		return "a string"
	}
	return "binary data"
}

func expected(goType string) string {
	switch {
	case strings.Contains(goType, "int"):
		return "an integer"
	case goType == "string":
		return "a string"
	}
	return "a " + goType
}
