package wire

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// FuzzDecodeRequest: any frame either decodes or yields a coded error, never
// a panic; a decoded request survives an encode/decode round trip.
func FuzzDecodeRequest(f *testing.F) {
	paths, _ := filepath.Glob(filepath.Join("testdata", "*_request.msgpack"))
	for _, p := range paths {
		frame, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(frame)
	}
	f.Add([]byte{})
	f.Add([]byte{0xc1})
	f.Add([]byte{0x81, 0xa2, 'i', 'd', 0xff})
	codec := NewCodec()
	f.Fuzz(func(t *testing.T, frame []byte) {
		var req Request
		werr := codec.DecodeRequest(frame, &req)
		if werr != nil {
			if werr.Code != CodeBadRequest && werr.Code != CodeBadSeed {
				t.Fatalf("decode error with code %q: %v", werr.Code, werr)
			}
			return
		}
		var again bytes.Buffer
		if err := codec.Encode(&again, &req); err != nil {
			t.Fatalf("re-encoding a decoded request: %v", err)
		}
		var back Request
		if werr := codec.DecodeRequest(again.Bytes(), &back); werr != nil {
			t.Fatalf("a re-encoded request does not decode: %v", werr)
		}
		if back.ID != req.ID || back.Op != req.Op || back.Handle != req.Handle || len(back.Seeds) != len(req.Seeds) {
			t.Fatalf("round trip changed the request: %+v → %+v", req, back)
		}
	})
}
