package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The start lines name documents by their address in the repository, which
// a user of the wheel (binaries, no docs) can open, and each is there.
func TestStartLinesNameDocumentsEveryoneCanRead(t *testing.T) {
	var out bytes.Buffer
	announce(&out, "127.0.0.1:8765", []string{"splendor-v1-2p.safetensors"})
	named := regexp.MustCompile(regexp.QuoteMeta(docs)+`([\w./-]+\.md)`).FindAllStringSubmatch(out.String(), -1)
	require.Len(t, named, 3, out.String())
	for _, m := range named {
		_, err := os.Stat(filepath.Join("..", "..", m[1]))
		assert.NoError(t, err, "%s names a document the repository does not hold", m[0])
	}
	assert.NotRegexp(t, `[ (]docs/|[ (]encoding/`, out.String(), "a path only a clone has")
}
