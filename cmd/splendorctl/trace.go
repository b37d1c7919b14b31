package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"

	"github.com/splendor-rl/splendor/env/splendor"
)

// trace writes K games as JSON Lines: one "decision" object per decision and
// one "result" object per game (schema: docs/trace.md). Game k is dealt from
// seed+k, so any single game can be replayed alone.
func trace(args []string, out io.Writer) error {
	fs := flag.NewFlagSet("trace", flag.ContinueOnError)
	game := fs.String("game", "splendor", "game to trace: splendor or duel")
	players := fs.Int("players", 2, "number of players (2–4; duel: 2)")
	seed := fs.Uint64("seed", 1, "seed of the first game")
	games := fs.Int("games", 1, "number of games")
	if err := fs.Parse(args); err != nil {
		return err
	}
	one := map[string]func(*json.Encoder, int, uint64) error{
		"splendor": func(enc *json.Encoder, k int, seed uint64) error { return traceGame(enc, k, *players, seed) },
		"duel":     traceDuel,
	}[*game]
	switch {
	case one == nil:
		return fmt.Errorf("unknown game %q (known: splendor, duel)", *game)
	case *game == "duel" && *players != 2:
		return fmt.Errorf("splendor duel is a 2-player game, got --players %d", *players)
	case *games < 1:
		return fmt.Errorf("--games must be at least 1, got %d", *games)
	}
	w := bufio.NewWriter(out)
	enc := json.NewEncoder(w)
	for k := 0; k < *games; k++ {
		if err := one(enc, k, *seed+uint64(k)); err != nil {
			return err
		}
	}
	return w.Flush()
}

func traceGame(enc *json.Encoder, k, players int, seed uint64) error {
	n := 0
	var encErr error
	s, err := randomGame(players, seed, func(s *splendor.State, legal *splendor.ActionSet, a int) {
		d := decisionLine[stateView]{Type: "decision", Game: k, Seed: seed, Decision: n, Turn: int(s.Turn),
			Seat: int(s.Seat), Phase: s.Phase.String(), State: viewState(s), Action: a, Label: splendor.Label(a)}
		for i := 0; i < splendor.NumActions; i++ {
			if legal.Has(i) {
				d.Legal = append(d.Legal, i)
				d.LegalLabels = append(d.LegalLabels, splendor.Label(i))
			}
		}
		if err := enc.Encode(d); err != nil && encErr == nil {
			encErr = err
		}
		n++
	})
	if err != nil {
		return err
	}
	if encErr != nil {
		return encErr
	}
	return enc.Encode(resultOf(k, seed, n, &s))
}

// decisionLine is one decision of a game whose state view is V.
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

type resultLine struct {
	Type      string `json:"type"`
	Game      int    `json:"game"`
	Seed      uint64 `json:"seed"`
	Turns     int    `json:"turns"`
	Decisions int    `json:"decisions"`
	Blocked   bool   `json:"blocked"`
	Scores    []int  `json:"scores"`
	Cards     []int  `json:"cards"`
	Nobles    []int  `json:"nobles"`
	Winners   []int  `json:"winners"`
	Final     string `json:"final_state"`
}

func resultOf(k int, seed uint64, decisions int, s *splendor.State) resultLine {
	r := resultLine{Type: "result", Game: k, Seed: seed, Turns: int(s.Turn), Decisions: decisions,
		Blocked: s.Blocked(), Winners: []int{}, Final: s.String()}
	for i := 0; i < int(s.NumPlayers); i++ {
		p := &s.Players[i]
		r.Scores = append(r.Scores, int(p.Points))
		r.Cards = append(r.Cards, p.Bought.Len())
		r.Nobles = append(r.Nobles, p.Nobles.Len())
		if s.Winners()&(1<<i) != 0 {
			r.Winners = append(r.Winners, i)
		}
	}
	return r
}
