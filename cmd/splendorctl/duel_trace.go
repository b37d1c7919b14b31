package main

import (
	"cmp"
	"encoding/json"
	"fmt"

	"github.com/splendor-rl/splendor/env/duel"
)

// traceDuel writes one random Splendor Duel game, of the payment variant
// when choose is set: its decisions, then its result (schema: docs/trace.md).
func traceDuel(enc *json.Encoder, k int, seed uint64, choose bool) error {
	s := duel.New(seed)
	s.ChoosePayment = choose
	var legal duel.ActionSet
	w := decisionWriter{enc: enc}
	err := playRandomly(&s, &legal, seed, func(legal *duel.ActionSet, a int) {
		d := decisionLine[duelView]{Type: "decision", Game: k, Seed: seed, Decision: w.n, Turn: int(s.Turn),
			Seat: int(s.Seat), Phase: s.Phase.String(), State: viewDuel(&s), Action: a, Label: duel.Label(a)}
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

// duelView is the JSON form of a whole Duel state, hidden information
// included; docs/trace.md documents every field.
type duelView struct {
	Notation    string         `json:"notation"`
	Seat        int            `json:"seat"`
	Phase       string         `json:"phase"`
	Payment     string         `json:"payment"` // the payment rule: auto or choose
	Turn        int            `json:"turn"`
	Passes      int            `json:"passes"`
	Again       bool           `json:"again"`
	Replenished bool           `json:"replenished"`
	Pending     *int           `json:"pending"`
	Due         *duelCostView  `json:"due,omitempty"` // phase pay: what is left to pay for pending
	Chance      string         `json:"chance"`
	Bag         duelTokensView `json:"bag"`
	Board       []*string      `json:"board"`
	Pyramid     []*int         `json:"pyramid"`
	Decks       [][]int        `json:"decks"`
	Seats       []duelSeatView `json:"seats"`
}

type duelTokensView struct {
	gemsView
	Pearl int `json:"pearl"`
	Gold  int `json:"gold"`
}

// duelCostView is a cost: the five colours and the pearl.
type duelCostView struct {
	gemsView
	Pearl int `json:"pearl"`
}

type duelSeatView struct {
	Tokens       duelTokensView `json:"tokens"`
	Privileges   int            `json:"privileges"`
	Bonuses      gemsView       `json:"bonuses"`
	ColourPoints gemsView       `json:"colour_points"`
	Points       int            `json:"points"`
	Crowns       int            `json:"crowns"`
	Bought       []int          `json:"bought"`
	JokerColours map[int]string `json:"joker_colours"` // bought joker card → the colour it was given
	Reserved     []reservedView `json:"reserved"`
	Royals       []int          `json:"royals"`
}

func viewDuel(s *duel.State) duelView {
	v := duelView{Notation: s.String(), Seat: int(s.Seat), Phase: s.Phase.String(), Turn: int(s.Turn),
		Passes: int(s.Passes), Again: s.Again, Replenished: s.Replenished,
		Pending: slot(int(s.Pending), s.Pending != duel.NoCard), Chance: fmt.Sprintf("%016x", s.Chance),
		Bag: viewDuelTokens(&s.Bag), Payment: paymentAuto}
	if s.ChoosePayment {
		v.Payment = paymentChoose
	}
	if s.Phase == duel.PhasePay {
		v.Due = &duelCostView{gemsView: viewGems(s.Due[:duel.NumColours]), Pearl: int(s.Due[duel.Pearl])}
	}
	for _, g := range s.Board {
		var kind *string
		if g != duel.NoGem {
			name := g.String()
			kind = &name
		}
		v.Board = append(v.Board, kind)
	}
	for _, c := range s.Pyramid {
		v.Pyramid = append(v.Pyramid, slot(int(c), c != duel.NoCard))
	}
	for l := range s.Decks {
		deck := []int{}
		for _, c := range s.Decks[l][:s.DeckSize[l]] {
			deck = append(deck, int(c))
		}
		v.Decks = append(v.Decks, deck)
	}
	for i := range s.Players {
		v.Seats = append(v.Seats, viewDuelSeat(s, &s.Players[i]))
	}
	return v
}

func viewDuelSeat(s *duel.State, p *duel.Player) duelSeatView {
	v := duelSeatView{Tokens: viewDuelTokens(&p.Tokens), Privileges: int(p.Privileges), Bonuses: viewGems(p.Bonus[:]),
		ColourPoints: viewGems(p.ColourPoints[:]), Points: int(p.Points), Crowns: int(p.Crowns),
		Bought: []int{}, JokerColours: map[int]string{}, Reserved: []reservedView{}, Royals: []int{}}
	for c := duel.Card(0); c < duel.NumCards; c++ {
		if !p.Bought.Has(c) {
			continue
		}
		v.Bought = append(v.Bought, int(c))
		if c.Info().Joker {
			v.JokerColours[int(c)] = s.JokerColour[c.JokerOrdinal()].String()
		}
	}
	for r := 0; r < int(p.NumReserved); r++ {
		v.Reserved = append(v.Reserved, reservedView{Card: int(p.Reserved[r]), Hidden: p.Blind&(1<<r) != 0})
	}
	for r := duel.Royal(0); r < duel.NumRoyals; r++ {
		if p.Royals.Has(r) {
			v.Royals = append(v.Royals, int(r))
		}
	}
	return v
}

func viewDuelTokens(t *duel.Tokens) duelTokensView {
	return duelTokensView{gemsView: viewGems(t[:duel.NumColours]), Pearl: int(t[duel.Pearl]), Gold: int(t[duel.Gold])}
}
