package main

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/splendor-rl/splendor/env/duel"
	"github.com/splendor-rl/splendor/env/duelenv"
	tv "github.com/splendor-rl/splendor/env/tableview"
)

var duelGame = withEnv(duelenv.Game, game{flag: "duel", name: "Splendor Duel",
	errPlayers: errors.New("splendor duel is a 2-player game"), deal: dealDuel,
	blocked: "both seats in turn could do nothing"})

// duelTable is a Splendor Duel game being played.
type duelTable struct{ duel.State }

func dealDuel(o options, seed uint64) (table, error) {
	s := duel.New(seed)
	s.ChoosePayment = o.payment == paymentChoose
	return &duelTable{s}, nil
}

func (t *duelTable) legal(buf []int) []int { return appendLegal(buf, t.Legal) }

func (t *duelTable) position() position { return position{int(t.Turn), int(t.Seat), t.Phase.String()} }

func (t *duelTable) view() any {
	v := duelenv.View(&t.State, tv.Referee)
	v.DeckSizes = nil // as for Splendor
	return v
}

func (t *duelTable) board() string { return refereeBoard(&t.State, duelenv.View, duelenv.Board) }

type duelResultLine struct {
	resultHead
	Scores  []int    `json:"scores"`
	Crowns  []int    `json:"crowns"`
	Cards   []int    `json:"cards"`
	Winners []int    `json:"winners"`
	Victory []string `json:"victory"` // the conditions the winner met: points, crowns, colour
	Final   string   `json:"final_state"`
}

func (t *duelTable) resultLine(head resultHead) any {
	s := &t.State
	res := duelResultLine{resultHead: head, Winners: []int{}, Victory: []string{}, Final: s.String()}
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

func (t *duelTable) printSeats(out io.Writer) {
	for i, p := range t.Players {
		fmt.Fprintf(out, "seat %d: %2d points, %2d crowns, %2d cards, %d royals, colour points %s\n",
			i, p.Points, p.Crowns, p.Bought.Len(), p.Royals.Len(), perColour(p.ColourPoints[:], duelColour))
	}
}

// wonBy names the victory conditions the winner, the seat that played last, met.
func (t *duelTable) wonBy() string { return ", by " + victoryText(t.Players[t.Seat].Victory()) }

// victoryText spells the victory conditions a winner met.
func victoryText(v duel.Victory) string {
	var met []string
	if v&duel.VictoryPoints != 0 {
		met = append(met, fmt.Sprintf("%d+ prestige points", duel.PointsToWin))
	}
	if v&duel.VictoryCrowns != 0 {
		met = append(met, fmt.Sprintf("%d+ crowns", duel.CrownsToWin))
	}
	if v&duel.VictoryColour != 0 {
		met = append(met, fmt.Sprintf("%d+ prestige points in one colour", duel.ColourToWin))
	}
	return strings.Join(met, " and ")
}

func duelColour(g int) string { return duel.Gem(g).String() }
