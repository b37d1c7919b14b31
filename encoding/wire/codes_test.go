package wire

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/require"
)

// A message quoting a client's bytes with %s is escaped, and a long one cut
// on a rune boundary, the "…" included in the 256 bytes.
func TestErrorfMessagesAreShortValidUTF8(t *testing.T) {
	e := Errorf(CodeBadShape, "got %s", "int\xff32")
	require.Equal(t, `got int\xff32`, e.Message)
	for _, long := range []string{strings.Repeat("x", 300), strings.Repeat("é", 300), strings.Repeat("\x80", 300)} {
		msg := Errorf(CodeBadRequest, "bad: %s", long).Message
		require.LessOrEqual(t, len(msg), MaxMessageBytes)
		require.True(t, utf8.ValidString(msg), msg)
		require.True(t, strings.HasSuffix(msg, "…"), msg)
	}
	require.Equal(t, "short é", CleanMessage("short é"), "a clean message is left alone")
}

// FuzzCleanMessage: any bytes give a message of at most 256 bytes of valid
// UTF-8, and a clean one comes back unchanged.
func FuzzCleanMessage(f *testing.F) {
	f.Add("ok")
	f.Add(strings.Repeat("é\xff", 200))
	f.Fuzz(func(t *testing.T, msg string) {
		clean := CleanMessage(msg)
		if len(clean) > MaxMessageBytes || !utf8.ValidString(clean) {
			t.Fatalf("%d bytes, valid %v: %q", len(clean), utf8.ValidString(clean), clean)
		}
		if len(msg) <= MaxMessageBytes && utf8.ValidString(msg) && clean != msg {
			t.Fatalf("a clean message changed: %q → %q", msg, clean)
		}
	})
}
