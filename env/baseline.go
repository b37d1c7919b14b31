package env

import (
	"cmp"
	"fmt"
	"slices"
	"sync"

	"github.com/splendor-rl/splendor/env/bots"
	"github.com/splendor-rl/splendor/env/nets"
)

// Baseline is a trained network that plays as the "baseline" bots
// (bots.Parse) of one env id at one table size. The server loads the
// networks it ships (cmd/internal/server, baselines.go); this package only
// checks them against their envs and hands them to the games.
type Baseline struct {
	Name    string  // its file's name, for messages
	Env     string  // the env id it plays
	Players int     // the table size it plays, as its name says
	Edition string  // "" for the "baseline" bots, else they are "baseline@Edition" (bots.Parse)
	Options Options // the env options it was trained with: its observations are that env's
	Network bots.Network
}

// NetBaseline is the Baseline of network n, read from the file name and
// named for players seats and edition: the network's env and training
// options are its own.
func NetBaseline(name string, players int, edition string, n *nets.Net) Baseline {
	return Baseline{Name: name, Env: n.Env, Players: players, Edition: edition, Options: n.Options,
		Network: bots.Network{Obs: n.Obs(), Actions: n.Actions(), Values: n.Values(),
			NewEvaluator: func() bots.Evaluator { return n.NewEvaluator() }}}
}

var (
	baselinesMu   sync.Mutex
	baselineNames []string   // installed, sorted
	installed     []Baseline // installed, sorted by env, players and edition
)

// SetBaselines makes bs the baseline bots of their envs, replacing every
// earlier set (nil: none). Each must name a registered env whose options
// it was trained with make an env of its Players, serving observations of
// its Network's length and an action space of its size, and no two of an
// edition may play the same env at the same table size; on error nothing
// changes.
func SetBaselines(bs []Baseline) error {
	baselinesMu.Lock()
	defer baselinesMu.Unlock()
	seen := map[[3]any]string{}
	var named []string
	for i := range bs {
		b := &bs[i]
		if err := checkBaseline(b); err != nil {
			return fmt.Errorf("%s: %w", b.Name, err)
		}
		key := [3]any{b.Env, b.Players, b.Edition}
		if other, dup := seen[key]; dup {
			return fmt.Errorf("%s: plays %s with %d players, as %s does", b.Name, b.Env, b.Players, other)
		}
		seen[key] = b.Name
		if b.Edition != "" {
			named = append(named, b.Edition)
		}
	}
	editions, err := bots.SetEditions(named)
	if err != nil {
		return err
	}
	var names []string
	for _, id := range IDs() {
		g, _ := lookup(id)
		for edition := range bots.MaxEditions + 1 {
			for players := 1; players <= bots.MaxSeats && g.SetBaseline != nil; players++ {
				g.SetBaseline(players, uint8(edition), nil)
			}
		}
	}
	for i := range bs {
		g, _ := lookup(bs[i].Env)
		g.SetBaseline(bs[i].Players, editions[bs[i].Edition], &bs[i])
		names = append(names, bs[i].Name)
	}
	slices.Sort(names)
	baselineNames = names
	installed = slices.SortedFunc(slices.Values(bs), func(a, b Baseline) int {
		return cmp.Or(cmp.Compare(a.Env, b.Env), cmp.Compare(a.Players, b.Players), cmp.Compare(a.Edition, b.Edition))
	})
	return nil
}

// Installed lists the baselines installed, by env, table size and edition
// ("" first): where a "baseline" bot plays.
func Installed() []Baseline {
	baselinesMu.Lock()
	defer baselinesMu.Unlock()
	return installed
}

// checkBaseline checks a network against the env it names.
func checkBaseline(b *Baseline) error {
	g, err := lookup(b.Env)
	if err != nil {
		return err
	}
	if g.SetBaseline == nil {
		return fmt.Errorf("%s has no baseline bots", b.Env)
	}
	o := NewOptionReader(b.Options)
	spec, _ := readOptions(g, o)
	if err := o.Check(); err != nil {
		return fmt.Errorf("its training options are not %s's: %w", b.Env, err)
	}
	switch {
	case spec.Players != b.Players:
		return fmt.Errorf("named for %d players, but trained with %d (options %v)", b.Players, spec.Players, b.Options)
	case spec.ObsSize() != b.Network.Obs:
		return fmt.Errorf("reads observations of %d values, but %s with options %v serves %d",
			b.Network.Obs, b.Env, b.Options, spec.ObsSize())
	case spec.NumActions != b.Network.Actions:
		return fmt.Errorf("has %d logits, but %s has %d actions", b.Network.Actions, b.Env, spec.NumActions)
	case b.Network.Values != 1 && b.Network.Values != spec.Players:
		return fmt.Errorf("has %d values, but a value head has 1 (the seat to play's) or one per seat (%d)",
			b.Network.Values, spec.Players)
	}
	return nil
}

// BaselineNames lists the names of the baselines installed, for the
// refusal of a baseline bot where there is none.
func BaselineNames() []string {
	baselinesMu.Lock()
	defer baselinesMu.Unlock()
	return baselineNames
}

// NoBaseline is the refusal of a baseline bot of edition ("" the default)
// in env id with players seats, which has no network: it says which exist.
func NoBaseline(id string, players int, edition string) error {
	have := "none are loaded"
	if names := BaselineNames(); len(names) > 0 {
		have = "loaded: " + fmt.Sprint(names)
	}
	what := "baseline network"
	if edition != "" {
		what = "baseline@" + edition + " network"
	}
	return fmt.Errorf("no %s for %s with %d players (the server's baselines directory holds "+
		"<env-id>-<players>p.safetensors and <env-id>-<players>p@<edition>.safetensors files; %s)",
		what, id, players, have)
}
