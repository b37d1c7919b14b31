// Package web holds the browser viewer's static files (index.html, ES
// modules, CSS, the vendored msgpack codec), embedded so that the server
// binary serves them with no install step and no Node build.
package web

import (
	"embed"
	"net/http"
)

//go:embed index.html *.css js vendor
var files embed.FS

// Handler serves the viewer. Every file is small and changes only with the
// binary, so the browser revalidates rather than caching for a fixed time.
func Handler() http.Handler {
	fileServer := http.FileServerFS(files)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-cache")
		w.Header().Set("X-Content-Type-Options", "nosniff")
		fileServer.ServeHTTP(w, r)
	})
}
