// Package web holds the browser viewer's static files (index.html, ES
// modules, CSS, the vendored msgpack codec), embedded so that the server
// binary serves them with no install step and no Node build.
//
// sample.jsonl, the replay the start page offers, is `splendorctl trace
// --seed 5`; a test keeps it equal to what splendorctl writes today, so a
// change of the rules or the trace format shows as a failing test, not as a
// stale sample.
package web

import (
	"embed"
	"io/fs"
	"net/http"
	"path"
)

//go:embed index.html *.css sample.jsonl js vendor
var files embed.FS

// ContentSecurityPolicy is what the page may load and who may frame it: its
// own scripts (ES modules, the vendored msgpack) and stylesheet, the empty
// data: favicon, and a WebSocket or fetch to its own origin ('self' covers
// ws: and wss: to the same host and port). No page may frame it: a framing
// page could click its buttons for the person (frame-ancestors, and
// X-Frame-Options for browsers that predate it).
const ContentSecurityPolicy = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
	"connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

// Handler serves the viewer. Every file is small and changes only with the
// binary, so the browser revalidates rather than caching for a fixed time.
func Handler() http.Handler {
	fileServer := http.FileServerFS(pages{files})
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		header := w.Header()
		header.Set("Cache-Control", "no-cache")
		header.Set("X-Content-Type-Options", "nosniff")
		header.Set("Content-Security-Policy", ContentSecurityPolicy)
		header.Set("X-Frame-Options", "DENY")
		header.Set("Referrer-Policy", "no-referrer")
		fileServer.ServeHTTP(w, r)
	})
}

// pages is a file system whose directories open only when they hold an
// index.html, which the file server then serves: a directory without one
// is not found, rather than listed (a listing is no page of the viewer's,
// and would show whatever a later build embeds).
type pages struct{ fs.FS }

func (p pages) Open(name string) (fs.File, error) {
	f, err := p.FS.Open(name)
	if err != nil {
		return nil, err
	}
	if info, err := f.Stat(); err == nil && info.IsDir() {
		if _, err := fs.Stat(p.FS, path.Join(name, "index.html")); err != nil {
			f.Close()
			return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
		}
	}
	return f, nil
}
