package server

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/splendor-rl/splendor/env"
)

// componentsPath serves each game's printed components (cards, nobles,
// royals) at componentsPath + env id, so that a viewer can draw a card from
// the id a view gives (PROTOCOL.md §9).
const componentsPath = "/api/components/"

func serveComponents(w http.ResponseWriter, r *http.Request) {
	described, err := env.Components(strings.TrimPrefix(r.URL.Path, componentsPath))
	if err != nil { // not echoing the path: a stranger's input stays out of replies
		http.Error(w, fmt.Sprintf("no such env id (known: %v)", env.IDs()), http.StatusNotFound)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "max-age=3600") // fixed for a server's life
	_ = json.NewEncoder(w).Encode(described)
}
