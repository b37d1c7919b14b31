package main

import (
	"bufio"
	"cmp"
	"encoding/json"
	"fmt"
	"io"

	"github.com/splendor-rl/splendor/env/splendor"
	"github.com/splendor-rl/splendor/env/splendorenv"
	tv "github.com/splendor-rl/splendor/env/tableview"
)

// trace writes K games as JSON Lines: one "decision" object per decision and
// one "result" object per game (schema: docs/trace.md). Game k is dealt from
// seed+k, so any single game can be replayed alone.
func trace(args []string, out io.Writer) error {
	fs := newFlagSet("trace")
	game := fs.String("game", "splendor", "the game: splendor or duel")
	players := fs.Int("players", 2, "number of players, 2-4 (duel: 2 only)")
	seed := fs.Uint64("seed", 1, "seed of the first game; game k is dealt from seed+k")
	games := fs.Int("games", 1, "number of games")
	payment := paymentFlag(fs)
	if done, err := fs.parse(args, out); done {
		return err
	}
	if err := checkGame(fs, *game, *players, *payment); err != nil {
		return err
	}
	if *games < 1 {
		return fs.badf("--games must be at least 1, got %d", *games)
	}
	one := func(enc *json.Encoder, k int, seed uint64) error {
		return traceDuel(enc, k, seed, *payment == paymentChoose)
	}
	if *game == "splendor" {
		rules := splendorRules{players: *players, choosePayment: *payment == paymentChoose}
		one = func(enc *json.Encoder, k int, seed uint64) error { return traceGame(enc, k, rules, seed) }
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

// checkGame refuses a game that does not exist, and a player count or a
// payment rule the game cannot have, before anything is printed.
func checkGame(fs *flagSet, game string, players int, payment string) error {
	switch {
	case game != "splendor" && game != "duel":
		return fs.badf("unknown --game %q (known: splendor, duel)", game)
	case game == "duel" && players != 2:
		return fs.badf("splendor duel is a 2-player game, got --players %d", players)
	case players < splendor.MinPlayers || players > splendor.MaxPlayers:
		return fs.bad(fmt.Errorf("%w, got --players %d", splendor.ErrPlayers, players))
	case payment != paymentAuto && payment != paymentChoose:
		return fs.badf("unknown --payment %q (known: %s, %s)", payment, paymentAuto, paymentChoose)
	}
	return nil
}

// The payment rules, named as the env option payment names them.
const (
	paymentAuto   = "auto"
	paymentChoose = "choose"
)

// paymentFlag declares --payment, which play and trace share.
func paymentFlag(fs *flagSet) *string {
	return fs.String("payment", paymentAuto,
		"how gold pays for a card: auto (gems first) or choose (the buyer decides, in phase pay)")
}

func traceGame(enc *json.Encoder, k int, rules splendorRules, seed uint64) error {
	w := decisionWriter{enc: enc}
	s, err := randomGame(rules, seed, func(s *splendor.State, legal *splendor.ActionSet, a int) {
		d := decisionLine[splendorenv.StateView]{Type: "decision", Game: k, Seed: seed, Decision: w.n, Turn: int(s.Turn),
			Seat: int(s.Seat), Phase: s.Phase.String(), State: splendorenv.View(s, tv.Referee), Action: a, Label: splendor.Label(a)}
		d.State.DeckSizes = nil // a trace's decks tell them (the format predates deck_sizes)
		d.Legal, d.LegalLabels = legalLists(legal, splendor.NumActions, splendor.Label)
		w.write(d)
	})
	if err = cmp.Or(err, w.err); err != nil {
		return err
	}
	return enc.Encode(resultOf(k, seed, w.n, &s))
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
