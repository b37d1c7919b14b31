package main

import (
	"fmt"
	"io"

	"github.com/splendor-rl/splendor/env/splendor"
	"github.com/splendor-rl/splendor/env/splendorenv"
	tv "github.com/splendor-rl/splendor/env/tableview"
)

var splendorGame = withEnv(splendorenv.Game,
	game{flag: "splendor", name: "Splendor", errPlayers: splendor.ErrPlayers, deal: dealSplendor,
		blocked: "a whole round passed with nobody able to act"})

// splendorTable is a Splendor game being played.
type splendorTable struct{ splendor.State }

func dealSplendor(o options, seed uint64) (table, error) {
	s, err := splendor.New(o.players, seed)
	s.ChoosePayment = o.payment == paymentChoose
	return &splendorTable{s}, err
}

func (t *splendorTable) legal(buf []int) []int { return appendLegal(buf, t.Legal) }

func (t *splendorTable) position() position {
	return position{int(t.Turn), int(t.Seat), t.Phase.String()}
}

func (t *splendorTable) view() any {
	v := splendorenv.View(&t.State, tv.Referee)
	v.DeckSizes = nil // a trace's decks tell them (the format predates deck_sizes)
	return v
}

func (t *splendorTable) board() string {
	return refereeBoard(&t.State, splendorenv.View, splendorenv.Board)
}

type resultLine struct {
	resultHead
	Scores  []int  `json:"scores"`
	Cards   []int  `json:"cards"`
	Nobles  []int  `json:"nobles"`
	Winners []int  `json:"winners"`
	Final   string `json:"final_state"`
}

func (t *splendorTable) resultLine(head resultHead) any {
	s := &t.State
	r := resultLine{resultHead: head, Winners: []int{}, Final: s.String()}
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

func (t *splendorTable) printSeats(out io.Writer) {
	for i, p := range t.Players[:t.NumPlayers] {
		fmt.Fprintf(out, "seat %d: %2d points, %2d cards, %d nobles, bonuses %s\n",
			i, p.Points, p.Bought.Len(), p.Nobles.Len(), perColour(p.Bonus[:], splendorColour))
	}
}

// wonBy is empty: the most points win Splendor.
func (t *splendorTable) wonBy() string { return "" }

func splendorColour(g int) string { return splendor.Gem(g).String() }
