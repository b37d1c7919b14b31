// Package layers holds the test that keeps DESIGN.md's dependency direction:
// rules packages import only the standard library and the project's
// internal/ packages, which themselves import nothing else (so a rules
// package depends on the standard library alone, if indirectly), the wire
// encoding imports no project package, only cmd/ imports viper and only the
// server imports gorilla/websocket.
package layers

import (
	"encoding/json"
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

const module = "github.com/splendor-rl/splendor"

type pkg struct {
	ImportPath string
	Imports    []string
}

// projectPackages lists every non-test package of the module with its
// direct imports, as the go tool sees them.
func projectPackages(t *testing.T) []pkg {
	out, err := exec.Command("go", "list", "-json", module+"/...").Output()
	require.NoError(t, err)
	var pkgs []pkg
	dec := json.NewDecoder(strings.NewReader(string(out)))
	for dec.More() {
		var p pkg
		require.NoError(t, dec.Decode(&p))
		pkgs = append(pkgs, p)
	}
	require.NotEmpty(t, pkgs)
	return pkgs
}

// rule says whether package path may import imp.
type rule struct {
	name    string
	applies func(path string) bool
	allowed func(imp string) bool
}

func isStd(imp string) bool { return !strings.Contains(strings.SplitN(imp, "/", 2)[0], ".") }

func under(prefix string) func(string) bool {
	return func(path string) bool {
		return path == module+"/"+prefix || strings.HasPrefix(path, module+"/"+prefix+"/")
	}
}

var rules = []rule{
	{"rules packages import only the standard library and internal/",
		func(p string) bool { return under("env/splendor")(p) || under("env/duel")(p) },
		func(imp string) bool { return isStd(imp) || under("internal")(imp) }},
	{"internal/ imports only the standard library and internal/", under("internal"),
		func(imp string) bool { return isStd(imp) || under("internal")(imp) }},
	{"encoding/wire imports no project package", under("encoding"),
		func(imp string) bool { return !strings.HasPrefix(imp, module+"/") }},
	{"only cmd/ imports viper", func(p string) bool { return !under("cmd")(p) },
		func(imp string) bool { return !strings.HasPrefix(imp, "github.com/spf13/viper") }},
	{"only the server imports gorilla/websocket", func(p string) bool { return !under("cmd/internal/server")(p) },
		func(imp string) bool { return !strings.HasPrefix(imp, "github.com/gorilla/websocket") }},
	{"only the server imports the metrics library", func(p string) bool { return !under("cmd/internal/server")(p) },
		func(imp string) bool { return !strings.HasPrefix(imp, "github.com/prometheus/") }},
	{"nothing below cmd/ is imported from outside it", func(p string) bool { return !under("cmd")(p) },
		func(imp string) bool { return !under("cmd")(imp) }},
	{"env/ never imports the wire or the server", under("env"),
		func(imp string) bool { return !under("encoding")(imp) && !under("cmd")(imp) }},
}

func TestDependencyDirection(t *testing.T) {
	for _, p := range projectPackages(t) {
		for _, r := range rules {
			if !r.applies(p.ImportPath) {
				continue
			}
			for _, imp := range p.Imports {
				if !r.allowed(imp) {
					t.Errorf("%s imports %s: %s", p.ImportPath, imp, r.name)
				}
			}
		}
	}
}

// The rules above must be able to fail: check them on made-up packages.
func TestRulesCatchViolations(t *testing.T) {
	violations := []struct{ path, imp string }{
		{module + "/env/splendor", "github.com/gorilla/websocket"},
		{module + "/env/splendor", module + "/env"},
		{module + "/env/duel", module + "/cmd/internal/server"},
		{module + "/internal/notation", module + "/env/splendor"},
		{module + "/internal/bitset", "github.com/stretchr/testify/require"},
		{module + "/encoding/wire", module + "/env/splendor"},
		{module + "/env", "github.com/spf13/viper"},
		{module + "/env", module + "/encoding/wire"},
		{module + "/encoding/wire", "github.com/gorilla/websocket"},
	}
	for _, v := range violations {
		caught := false
		for _, r := range rules {
			if r.applies(v.path) && !r.allowed(v.imp) {
				caught = true
			}
		}
		require.True(t, caught, "%s importing %s is not caught", v.path, v.imp)
	}
}
