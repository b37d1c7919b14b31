// Package golden compares test output with golden files under testdata, for
// the rules engines' playthrough tests. Golden lines are whole game states,
// too long to compare by eye, so a mismatch names the first differing line
// and column with a little context. It is imported by tests only.
package golden

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// Check compares got with the file at path, or rewrites the file when update
// is set (the test's -update flag). The failure says how to regenerate the
// file: with the top-level test's name and -update.
func Check(t testing.TB, path, got string, update bool) {
	t.Helper()
	regenerate := "go test -run " + strings.SplitN(t.Name(), "/", 2)[0] + " -update"
	if update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatalf("%v", err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v: no golden file; create it with %s", err, regenerate)
		return
	}
	if got != string(want) {
		t.Fatalf("%s differs from the regenerated output; %s\n"+
			"if the change is intended, rewrite it with %s and review the diff",
			path, FirstDifference(got, string(want)), regenerate)
	}
}

// FirstDifference points at the first line and column where got and want
// differ, with the text around it: enough to recognise the field that
// changed.
func FirstDifference(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := 0; i < min(len(g), len(w)); i++ {
		if g[i] != w[i] {
			col := commonPrefix(g[i], w[i])
			return fmt.Sprintf("first difference at line %d, column %d:\ngot:  …%s…\nwant: …%s…",
				i+1, col+1, excerpt(g[i], col), excerpt(w[i], col))
		}
	}
	return fmt.Sprintf("got %d lines, want %d", len(g), len(w))
}

func commonPrefix(a, b string) int {
	n := 0
	for n < min(len(a), len(b)) && a[n] == b[n] {
		n++
	}
	return n
}

// excerpt is the part of line around byte col.
func excerpt(line string, col int) string {
	return line[max(0, col-40):min(len(line), col+60)]
}
