package wire

import (
	"bufio"
	"encoding/hex"
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// The protocol is a document: these tests keep PROTOCOL.md from drifting
// from the code. It must name every error code, op, dtype, message field and
// golden frame, and the frames it shows must be the golden files.

func protocolDoc(t *testing.T) string {
	t.Helper()
	doc, err := os.ReadFile("PROTOCOL.md")
	require.NoError(t, err)
	return string(doc)
}

// tableRows are the doc's table lines: names are documented in tables.
func tableRows(doc string) string {
	var rows []string
	for _, line := range strings.Split(doc, "\n") {
		if strings.HasPrefix(line, "|") {
			rows = append(rows, line)
		}
	}
	return strings.Join(rows, "\n")
}

func TestProtocolDocListsEveryCode(t *testing.T) {
	doc := protocolDoc(t)
	codes := map[string]bool{}
	for _, c := range Codes {
		codes[string(c)] = true
	}
	for _, c := range constStrings(t, func(name, typ string) bool { return typ == "Code" }) {
		require.True(t, codes[c], "code %q is missing from Codes", c)
	}
	for c := range codes {
		require.True(t, strings.Contains(doc, "\n| `"+c+"` |"), "PROTOCOL.md's code table has no row for %q", c)
	}
}

func TestProtocolDocHasASectionPerOp(t *testing.T) {
	doc := protocolDoc(t)
	ops := constStrings(t, func(name, typ string) bool { return strings.HasPrefix(name, "Op") })
	require.Subset(t, ops, []string{OpHello, OpMake, OpReset, OpStep, OpClose}, "the op constants were not found")
	for _, op := range ops {
		require.True(t, hasHeading(doc, "`"+op+"`"), "PROTOCOL.md has no section for op %q", op)
	}
}

// hasHeading says whether a "###" heading of doc names name.
func hasHeading(doc, name string) bool {
	for _, line := range strings.Split(doc, "\n") {
		if strings.HasPrefix(line, "### ") && strings.Contains(line, name) {
			return true
		}
	}
	return false
}

func TestProtocolDocNamesEveryField(t *testing.T) {
	rows := tableRows(protocolDoc(t))
	for _, msg := range []any{Request{}, HelloReply{}, Limits{}, MakeReply{}, Spec{}, BatchReply{}, CloseReply{},
		ErrorReply{}, Error{}, Tensor{}, OptionSpec{}, StatesReply{}, ActionsReply{}, ViewsReply{}, SearchReply{}} {
		typ := reflect.TypeOf(msg)
		for i := 0; i < typ.NumField(); i++ {
			name := msgpackName(typ.Field(i))
			if name == "" {
				continue
			}
			require.True(t, strings.Contains(rows, "`"+name+"`"),
				"no table in PROTOCOL.md names %s's field %q", typ.Name(), name)
		}
	}
	for _, dtype := range []string{Uint8, Bool, Int32, Int64, Float32} {
		require.True(t, strings.Contains(rows, "`"+dtype+"`"), "no table in PROTOCOL.md names dtype %q", dtype)
	}
}

// msgpackName is the field's key on the wire ("" when it is not sent).
func msgpackName(f reflect.StructField) string {
	if !f.IsExported() {
		return ""
	}
	name, _, _ := strings.Cut(f.Tag.Get("msgpack"), ",")
	switch name {
	case "-":
		return ""
	case "":
		return f.Name
	}
	return name
}

func TestProtocolDocListsEveryGoldenFrame(t *testing.T) {
	rows := tableRows(protocolDoc(t))
	paths, err := filepath.Glob(filepath.Join("testdata", "*.msgpack"))
	require.NoError(t, err)
	require.NotEmpty(t, paths)
	for _, p := range paths {
		require.True(t, strings.Contains(rows, "`"+filepath.Base(p)+"`"), "PROTOCOL.md's golden frame table misses %s", p)
	}
}

// The frames the doc shows, as ```hex <file> (annotated bytes, comments after
// #) or ```json <file> blocks, are exactly the golden files.
func TestProtocolDocFramesAreTheGoldenOnes(t *testing.T) {
	blocks := shownFrames(t, protocolDoc(t))
	require.GreaterOrEqual(t, len(blocks), 2, "PROTOCOL.md shows no golden frames")
	for _, b := range blocks {
		golden, err := os.ReadFile(filepath.Join("testdata", b.file))
		require.NoError(t, err, "PROTOCOL.md shows %s", b.file)
		if b.kind == "json" {
			require.JSONEq(t, string(golden), b.text, "PROTOCOL.md shows %s differently", b.file)
			continue
		}
		var shown []byte
		for _, line := range strings.Split(b.text, "\n") {
			code, _, _ := strings.Cut(line, "#")
			for _, field := range strings.Fields(code) {
				octet, err := hex.DecodeString(field)
				require.NoError(t, err, "%s: %q is not a hex byte", b.file, field)
				require.Len(t, octet, 1, "%s: %q is not one byte", b.file, field)
				shown = append(shown, octet...)
			}
		}
		require.Equal(t, hex.EncodeToString(golden), hex.EncodeToString(shown), "PROTOCOL.md shows %s differently", b.file)
	}
}

type shownFrame struct{ kind, file, text string }

// shownFrames collects the fenced blocks whose info string is "hex <file>"
// or "json <file>".
func shownFrames(t *testing.T, doc string) []shownFrame {
	var frames []shownFrame
	var cur *shownFrame
	var text []string
	sc := bufio.NewScanner(strings.NewReader(doc))
	for sc.Scan() {
		line := sc.Text()
		switch {
		case cur == nil && strings.HasPrefix(line, "```"):
			info := strings.Fields(strings.TrimPrefix(line, "```"))
			if len(info) == 2 && (info[0] == "hex" || info[0] == "json") {
				cur, text = &shownFrame{kind: info[0], file: info[1]}, nil
			}
		case cur != nil && line == "```":
			cur.text = strings.Join(text, "\n")
			frames = append(frames, *cur)
			cur = nil
		case cur != nil:
			text = append(text, line)
		}
	}
	require.NoError(t, sc.Err())
	require.Nil(t, cur, "PROTOCOL.md: unterminated frame block")
	for _, f := range frames {
		if f.kind == "json" {
			require.True(t, json.Valid([]byte(f.text)), "PROTOCOL.md: %s is not valid JSON", f.file)
		}
	}
	return frames
}

// constStrings returns the values of the package's string constants that
// keep says to (by name and declared type), read from its non-test sources
// so that a new op or code cannot be added without the doc noticing.
func constStrings(t *testing.T, keep func(name, typ string) bool) []string {
	t.Helper()
	files, err := filepath.Glob("*.go")
	require.NoError(t, err)
	var values []string
	fset := token.NewFileSet()
	for _, path := range files {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		require.NoError(t, err)
		for _, decl := range f.Decls {
			gen, ok := decl.(*ast.GenDecl)
			if !ok || gen.Tok != token.CONST {
				continue
			}
			for _, spec := range gen.Specs {
				values = append(values, keptValues(t, spec.(*ast.ValueSpec), keep)...)
			}
		}
	}
	return values
}

func keptValues(t *testing.T, spec *ast.ValueSpec, keep func(name, typ string) bool) []string {
	typ := ""
	if id, ok := spec.Type.(*ast.Ident); ok {
		typ = id.Name
	}
	var values []string
	for i, name := range spec.Names {
		if i >= len(spec.Values) || !keep(name.Name, typ) {
			continue
		}
		lit, ok := spec.Values[i].(*ast.BasicLit)
		if !ok || lit.Kind != token.STRING {
			continue
		}
		s, err := strconv.Unquote(lit.Value)
		require.NoError(t, err)
		values = append(values, s)
	}
	return values
}
