package env

import (
	"fmt"
	"sort"
	"sync"
)

// Game is a registered environment: Make reads the game's own options and
// returns the spec of one env (Mode, Players, observation and action fields)
// and a constructor of fresh envs with those options. Components, if set,
// describes the game's printed components (cards…) as JSON, for viewers.
type Game struct {
	ID         string
	Make       func(o *OptionReader) (Spec, func() Env)
	Components func() any
	// SetBaseline makes b, checked against the game (SetBaselines), the
	// baseline bots of edition (bots.Spec.Edition) at its tables of
	// players seats (nil: none). Optional: a game without it has no
	// baseline bots.
	SetBaseline func(players int, edition uint8, b *Baseline)
}

var (
	registryMu sync.RWMutex
	registry   = map[string]Game{}
)

// Register makes a game available by its id; a second registration of an id
// is a programming error.
func Register(g Game) {
	registryMu.Lock()
	defer registryMu.Unlock()
	if _, dup := registry[g.ID]; dup {
		panic("env: " + g.ID + " registered twice")
	}
	registry[g.ID] = g
}

// IDs lists the registered env ids, sorted.
func IDs() []string {
	registryMu.RLock()
	defer registryMu.RUnlock()
	return idsLocked()
}

func lookup(id string) (Game, error) {
	registryMu.RLock()
	defer registryMu.RUnlock()
	g, ok := registry[id]
	if !ok {
		return g, fmt.Errorf("%w %q (known: %v)", ErrUnknownEnv, id, idsLocked())
	}
	return g, nil
}

func idsLocked() []string {
	ids := make([]string, 0, len(registry))
	for id := range registry {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}

// Components describes env id's printed components (cards, nobles…) for a
// viewer; an id that is not registered, or that has none, is ErrUnknownEnv.
func Components(id string) (any, error) {
	g, err := lookup(id)
	if err == nil && g.Components == nil {
		err = fmt.Errorf("%w: %s describes no components", ErrUnknownEnv, id)
	}
	if err != nil {
		return nil, err
	}
	return g.Components(), nil
}
