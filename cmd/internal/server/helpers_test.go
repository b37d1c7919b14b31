package server

import (
	"encoding/json"
	"io"

	"github.com/vmihailenco/msgpack/v5"
)

func encodeMap(m map[string]any) ([]byte, error) { return msgpack.Marshal(m) }

func decodeFrame(frame []byte, v any) error { return msgpack.Unmarshal(frame, v) }

func jsonDecode(r io.Reader, v any) error { return json.NewDecoder(r).Decode(v) }
