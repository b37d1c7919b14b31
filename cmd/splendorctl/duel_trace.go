package main

import (
	"cmp"
	"encoding/json"

	"github.com/splendor-rl/splendor/env/duel"
	"github.com/splendor-rl/splendor/env/duelenv"
	tv "github.com/splendor-rl/splendor/env/tableview"
)

// traceDuel writes one random Splendor Duel game, of the payment variant
// when choose is set: its decisions, then its result (schema: docs/trace.md).
func traceDuel(enc *json.Encoder, k int, seed uint64, choose bool) error {
	s := duel.New(seed)
	s.ChoosePayment = choose
	var legal duel.ActionSet
	w := decisionWriter{enc: enc}
	err := playRandomly(&s, &legal, seed, func(legal *duel.ActionSet, a int) {
		d := decisionLine[duelenv.StateView]{Type: "decision", Game: k, Seed: seed, Decision: w.n, Turn: int(s.Turn),
			Seat: int(s.Seat), Phase: s.Phase.String(), State: duelenv.View(&s, tv.Referee), Action: a, Label: duel.Label(a)}
		d.State.DeckSizes = nil // as for Splendor
		d.Legal, d.LegalLabels = legalLists(legal, duel.NumActions, duel.Label)
		w.write(d)
	})
	if err = cmp.Or(err, w.err); err != nil {
		return err
	}
	return enc.Encode(duelResult(k, seed, w.n, &s))
}

type duelResultLine struct {
	Type      string   `json:"type"`
	Game      int      `json:"game"`
	Seed      uint64   `json:"seed"`
	Turns     int      `json:"turns"`
	Decisions int      `json:"decisions"`
	Blocked   bool     `json:"blocked"`
	Scores    []int    `json:"scores"`
	Crowns    []int    `json:"crowns"`
	Cards     []int    `json:"cards"`
	Winners   []int    `json:"winners"`
	Victory   []string `json:"victory"` // the conditions the winner met: points, crowns, colour
	Final     string   `json:"final_state"`
}

func duelResult(k int, seed uint64, decisions int, s *duel.State) duelResultLine {
	res := duelResultLine{Type: "result", Game: k, Seed: seed, Turns: int(s.Turn), Decisions: decisions,
		Blocked: s.Blocked(), Winners: []int{}, Victory: []string{}, Final: s.String()}
	for i := range s.Players {
		p := &s.Players[i]
		res.Scores = append(res.Scores, int(p.Points))
		res.Crowns = append(res.Crowns, int(p.Crowns))
		res.Cards = append(res.Cards, p.Bought.Len())
		if s.Winners()&(1<<i) == 0 {
			continue
		}
		res.Winners = append(res.Winners, i)
		for j, name := range []string{"points", "crowns", "colour"} {
			if p.Victory()&(1<<j) != 0 {
				res.Victory = append(res.Victory, name)
			}
		}
	}
	return res
}
