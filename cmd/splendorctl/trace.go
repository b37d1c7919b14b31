package main

import (
	"bufio"
	"cmp"
	"encoding/json"
	"io"
)

// trace writes K games as JSON Lines: one "decision" object per decision and
// one "result" object per game (schema: docs/trace.md). Game k is dealt from
// seed+k, so any single game can be replayed alone.
func trace(args []string, out io.Writer) error {
	fs := newDealFlags("trace", "number of players, 2-4 (duel: 2 only)")
	seed := fs.Uint64("seed", 1, "seed of the first game; game k is dealt from seed+k")
	count := fs.Int("games", 1, "number of games")
	g, o, done, err := fs.parse(args, out)
	if done {
		return err
	}
	if *count < 1 {
		return fs.badf("--games must be at least 1, got %d", *count)
	}
	w := bufio.NewWriter(out)
	enc := json.NewEncoder(w)
	for k := 0; k < *count; k++ {
		if err := g.trace(enc, o, k, *seed+uint64(k)); err != nil {
			return err
		}
	}
	return w.Flush()
}

// trace writes game k, dealt from seed: its decisions, then its result.
func (g *game) trace(enc *json.Encoder, o options, k int, seed uint64) error {
	t, err := g.deal(o, seed)
	if err != nil {
		return err
	}
	w := decisionWriter{enc: enc}
	err = playRandomly(t, seed, func(legal []int, a int) {
		at := t.position()
		w.write(decisionLine[any]{Type: "decision", Game: k, Seed: seed, Decision: w.n, Turn: at.turn,
			Seat: at.seat, Phase: at.phase, State: t.view(), Legal: legal, LegalLabels: labels(legal, g.label),
			Action: a, Label: g.label(a)})
	})
	if err = cmp.Or(err, w.err); err != nil {
		return err
	}
	head := resultHead{Type: "result", Game: k, Seed: seed, Turns: t.position().turn, Decisions: w.n,
		Blocked: t.Blocked()}
	return enc.Encode(t.resultLine(head))
}

func labels(actions []int, label func(int) string) []string {
	names := make([]string, len(actions))
	for i, a := range actions {
		names[i] = label(a)
	}
	return names
}

// decisionWriter encodes a game's decision lines, counting them. It keeps
// the first error, to be returned once the game is over: the random
// players cannot be stopped midway, and a writer that failed fails again.
type decisionWriter struct {
	enc *json.Encoder
	n   int
	err error
}

func (w *decisionWriter) write(d any) {
	if err := w.enc.Encode(d); err != nil && w.err == nil {
		w.err = err
	}
	w.n++
}

// decisionLine is one decision of a game whose state view is V: any as
// trace writes it, the game's StateView as a reader decodes it.
type decisionLine[V any] struct {
	Type        string   `json:"type"`
	Game        int      `json:"game"`
	Seed        uint64   `json:"seed"`
	Decision    int      `json:"decision"`
	Turn        int      `json:"turn"`
	Seat        int      `json:"seat"`
	Phase       string   `json:"phase"`
	State       V        `json:"state"`
	Legal       []int    `json:"legal"`
	LegalLabels []string `json:"legal_labels"`
	Action      int      `json:"action"`
	Label       string   `json:"label"`
}

// resultHead begins the result line of every game.
type resultHead struct {
	Type      string `json:"type"`
	Game      int    `json:"game"`
	Seed      uint64 `json:"seed"`
	Turns     int    `json:"turns"`
	Decisions int    `json:"decisions"`
	Blocked   bool   `json:"blocked"`
}
