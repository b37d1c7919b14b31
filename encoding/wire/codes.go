// Package wire is the protocol between the server and its clients: binary
// WebSocket frames, each one msgpack map; request {id, op, …}; exactly one
// reply per request, in request order. PROTOCOL.md is its specification and
// testdata/ holds golden frames that both the Go and the Python tests decode.
// It imports no project package: the server maps its errors to these codes.
package wire

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// ProtocolVersion changes when a message changes incompatibly.
const ProtocolVersion = 1

// Code says what kind of failure an error reply reports. The list is short
// and fixed; clients map each to an exception.
type Code string

const (
	CodeBadRequest    Code = "bad_request"    // not a msgpack map of the documented fields and types
	CodeUnknownOp     Code = "unknown_op"     // op is not one of the documented ops
	CodeUnauthorized  Code = "unauthorized"   // the server wants a token in hello first
	CodeUnknownEnv    Code = "unknown_env"    // no env has that id
	CodeBadOption     Code = "bad_option"     // an option is unknown or out of range, or num_envs < 1
	CodeBadSeed       Code = "bad_seed"       // a seed is not an integer in [0, 2^64)
	CodeBadShape      Code = "bad_shape"      // a tensor or list has the wrong dtype, shape or length
	CodeIllegalAction Code = "illegal_action" // some action is not legal; nothing was stepped
	CodeUnknownHandle Code = "unknown_handle" // no env batch of this connection has that handle
	CodeLimit         Code = "limit_exceeded" // too many envs (per connection or in total)
	CodeBadState      Code = "bad_state"      // set_state: a state that is not a valid state of the batch's env
	CodeBadEvaluation Code = "bad_evaluation" // evaluate: a leaf's priors or value are not numbers a search takes
	CodeInternal      Code = "internal"       // a server bug; the request changed nothing it could undo
)

// Codes lists every code, for documentation tests and clients.
var Codes = []Code{CodeBadRequest, CodeUnknownOp, CodeUnauthorized, CodeUnknownEnv, CodeBadOption,
	CodeBadSeed, CodeBadShape, CodeIllegalAction, CodeUnknownHandle, CodeLimit, CodeBadState, CodeBadEvaluation, CodeInternal}

// Error is a failed request's reply body.
type Error struct {
	Code    Code   `msgpack:"code"`
	Message string `msgpack:"message"`
	// Envs lists the offending env indices of an illegal_action error.
	Envs []int `msgpack:"envs,omitempty"`
}

func (e *Error) Error() string { return fmt.Sprintf("%s: %s", e.Code, e.Message) }

// MaxMessageBytes caps an error message: callers quote a client's values in
// a few dozen bytes, and this is the net under them.
const MaxMessageBytes = 256

// Errorf builds an Error with a formatted message, made clean by
// CleanMessage.
func Errorf(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Message: CleanMessage(fmt.Sprintf(format, args...))}
}

// CleanMessage is msg as every client can decode and show it: each byte that
// is not part of valid UTF-8 written as \xNN, and the whole cut on a rune
// boundary to at most MaxMessageBytes, ending in "…" when cut. A message may
// quote a client's bytes, and a msgpack str that is not UTF-8 makes strict
// decoders (Python's) fail the whole reply.
func CleanMessage(msg string) string {
	if len(msg) <= MaxMessageBytes && utf8.ValidString(msg) {
		return msg
	}
	var b strings.Builder
	for i := 0; i < len(msg) && b.Len() <= MaxMessageBytes; {
		r, size := utf8.DecodeRuneInString(msg[i:])
		if r == utf8.RuneError && size == 1 {
			fmt.Fprintf(&b, `\x%02x`, msg[i])
		} else {
			b.WriteString(msg[i : i+size])
		}
		i += size
	}
	clean := b.String()
	if len(clean) <= MaxMessageBytes {
		return clean
	}
	const more = "…"
	cut := MaxMessageBytes - len(more)
	for !utf8.RuneStart(clean[cut]) {
		cut--
	}
	return clean[:cut] + more
}
