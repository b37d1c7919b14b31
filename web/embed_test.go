package web

import (
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"path"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// The page and its modules are served with the types a browser needs to run
// them (a module served as anything but JavaScript is refused).
func TestHandlerServesThePage(t *testing.T) {
	for file, contentType := range map[string]string{
		"/":                             "text/html",
		"/viewer.css":                   "text/css",
		"/js/app.js":                    "text/javascript",
		"/vendor/msgpack/index.mjs":     "text/javascript",
		"/vendor/msgpack/LICENSE":       "text/plain",
		"/vendor/msgpack/utils/int.mjs": "text/javascript",
	} {
		recorder := httptest.NewRecorder()
		Handler().ServeHTTP(recorder, httptest.NewRequest(http.MethodGet, file, nil))
		require.Equal(t, http.StatusOK, recorder.Code, file)
		require.True(t, strings.HasPrefix(recorder.Header().Get("Content-Type"), contentType), file)
		require.Equal(t, "DENY", recorder.Header().Get("X-Frame-Options"), file)
		require.Contains(t, recorder.Header().Get("Content-Security-Policy"), "frame-ancestors 'none'", file)
	}
}

// Every embedded file is served, and the page at /; a directory without
// an index.html is not found, with or without its slash, rather than
// listed.
func TestHandlerServesFilesButListsNoDirectory(t *testing.T) {
	get := func(target string) *httptest.ResponseRecorder {
		recorder := httptest.NewRecorder()
		Handler().ServeHTTP(recorder, httptest.NewRequest(http.MethodGet, target, nil))
		return recorder
	}
	page, err := fs.ReadFile(files, "index.html")
	require.NoError(t, err)
	root := get("/")
	require.Equal(t, http.StatusOK, root.Code)
	require.Equal(t, string(page), root.Body.String())
	directories := 0
	err = fs.WalkDir(files, ".", func(name string, entry fs.DirEntry, err error) error {
		switch {
		case err != nil || name == "." || name == "index.html": // index.html is served at /, where it redirects
			return err
		case entry.IsDir():
			directories++
			for _, target := range []string{"/" + name, "/" + name + "/"} {
				got := get(target)
				require.Equal(t, http.StatusNotFound, got.Code, "%s: %s", target, got.Body)
				require.NotContains(t, got.Body.String(), "<a href", target)
			}
		default:
			require.Equal(t, http.StatusOK, get("/"+name).Code, name)
		}
		return nil
	})
	require.NoError(t, err)
	require.GreaterOrEqual(t, directories, 3, "js, vendor, vendor/msgpack at least")
}

// names says whether a file may name others: the page and the modules.
func names(file string) bool {
	return strings.HasSuffix(file, ".html") || strings.HasSuffix(file, ".js") || strings.HasSuffix(file, ".mjs")
}

var importPath = regexp.MustCompile(`(?m)^\s*(?:import|export)\b[^"]*?from\s+"([^"]+)"|src="([^"]+)"|href="([^":]+)"`)

// Every file the page and its modules name is embedded: a missing one would
// only show in a browser.
func TestEveryImportIsEmbedded(t *testing.T) {
	checked := 0
	err := fs.WalkDir(files, ".", func(name string, entry fs.DirEntry, err error) error {
		if err != nil || entry.IsDir() || !names(name) {
			return err
		}
		text, err := fs.ReadFile(files, name)
		require.NoError(t, err)
		for _, match := range importPath.FindAllStringSubmatch(string(text), -1) {
			target := match[1] + match[2] + match[3]
			if strings.HasPrefix(target, "#") || target == "" {
				continue
			}
			_, err := fs.Stat(files, path.Join(path.Dir(name), target))
			require.NoError(t, err, "%s names %s", name, target)
			checked++
		}
		return nil
	})
	require.NoError(t, err)
	require.Greater(t, checked, 20)
}

// The sample replay is what `splendorctl trace --seed 5` writes with the
// rules and trace format of this checkout.
func TestSampleIsTheCurrentTrace(t *testing.T) {
	command := exec.Command("go", "run", "../cmd/splendorctl", "trace", "--seed", "5")
	var stderr strings.Builder
	command.Stderr = &stderr
	trace, err := command.Output()
	require.NoError(t, err, stderr.String())
	sample, err := fs.ReadFile(files, "sample.jsonl")
	require.NoError(t, err)
	require.True(t, string(trace) == string(sample),
		"web/sample.jsonl is stale: regenerate it with `go run ./cmd/splendorctl trace --seed 5 > web/sample.jsonl`")
}
