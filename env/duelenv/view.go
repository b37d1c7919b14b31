package duelenv

import (
	"fmt"

	"github.com/splendor-rl/splendor/env/duel"
	tv "github.com/splendor-rl/splendor/env/tableview"
	"github.com/splendor-rl/splendor/env/turnbased"
)

// StateView is a Splendor Duel state as JSON (docs/trace.md): the referee's
// view (tv.Referee) has everything, as `splendorctl trace` writes it; a
// seat's view leaves out what that seat cannot see.
type StateView struct {
	Notation    string    `json:"notation,omitempty"` // referee only: it spells the decks
	Seat        int       `json:"seat"`
	Phase       string    `json:"phase"`
	Payment     string    `json:"payment"` // the payment rule: auto or choose
	Turn        int       `json:"turn"`
	Passes      int       `json:"passes"`
	Again       bool      `json:"again"`
	Replenished bool      `json:"replenished"`
	Pending     *int      `json:"pending"`
	Due         *Cost     `json:"due,omitempty"`    // phase pay: what is left to pay for pending
	Chance      string    `json:"chance,omitempty"` // referee only: it decides the bag's next draws
	Bag         Tokens    `json:"bag"`
	Board       []*string `json:"board"`
	Pyramid     []*int    `json:"pyramid"`
	tv.Piles
	Seats []SeatView `json:"seats"`
	tv.Episode
}

// Tokens counts tokens per kind: the five colours, pearl and gold.
type Tokens struct {
	tv.Gems
	Pearl int `json:"pearl"`
	Gold  int `json:"gold"`
}

// Cost is a cost: the five colours and the pearl.
type Cost struct {
	tv.Gems
	Pearl int `json:"pearl"`
}

// SeatView is one seat's tokens, privileges, cards and royals.
type SeatView struct {
	Tokens       Tokens  `json:"tokens"`
	Privileges   int     `json:"privileges"`
	Bonuses      tv.Gems `json:"bonuses"`
	ColourPoints tv.Gems `json:"colour_points"`
	Points       int     `json:"points"`
	Crowns       int     `json:"crowns"`
	Bought       []int   `json:"bought"`
	// JokerColours maps a bought joker card's id, as a string (JSON and
	// msgpack clients want string keys), to the colour it was given.
	JokerColours map[string]string `json:"joker_colours"`
	Reserved     []tv.Reserved     `json:"reserved"`
	Royals       []int             `json:"royals"`
}

// View is s as viewer sees it: tv.Referee, or a seat, whose view has no
// notation, no deck order, no bag future and no card of the other seat's
// blind reserves.
func View(s *duel.State, viewer int) StateView {
	v := StateView{Seat: int(s.Seat), Phase: s.Phase.String(), Turn: int(s.Turn), Passes: int(s.Passes),
		Again: s.Again, Replenished: s.Replenished, Pending: tv.Slot(int(s.Pending), s.Pending != duel.NoCard),
		Bag: tokensOf(&s.Bag), Payment: turnbased.PaymentAuto}
	if viewer == tv.Referee {
		v.Notation, v.Chance = s.String(), fmt.Sprintf("%016x", s.Chance)
	}
	if s.ChoosePayment {
		v.Payment = turnbased.PaymentChoose
	}
	if s.Phase == duel.PhasePay {
		v.Due = &Cost{Gems: tv.GemsOf(s.Due[:duel.NumColours]), Pearl: int(s.Due[duel.Pearl])}
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
		v.Pyramid = append(v.Pyramid, tv.Slot(int(c), c != duel.NoCard))
	}
	v.Piles = tv.PilesOf(duel.NumLevels, func(l int) []duel.Card { return s.Decks[l][:s.DeckSize[l]] }, viewer)
	for i := range s.Players {
		v.Seats = append(v.Seats, seatView(s, i, viewer))
	}
	return v
}

func seatView(s *duel.State, seat, viewer int) SeatView {
	p := &s.Players[seat]
	v := SeatView{Tokens: tokensOf(&p.Tokens), Privileges: int(p.Privileges), Bonuses: tv.GemsOf(p.Bonus[:]),
		ColourPoints: tv.GemsOf(p.ColourPoints[:]), Points: int(p.Points), Crowns: int(p.Crowns),
		Bought: tv.Members(duel.NumCards, p.Bought.Has), JokerColours: map[string]string{},
		Reserved: tv.Hand(p.Reserved[:p.NumReserved], p.Blind, func(c duel.Card) uint8 { return c.Info().Level },
			seat, viewer),
		Royals: tv.Members(duel.NumRoyals, p.Royals.Has)}
	for _, id := range v.Bought {
		if c := duel.Card(id); c.Info().Joker {
			v.JokerColours[fmt.Sprint(id)] = s.JokerColour[c.JokerOrdinal()].String()
		}
	}
	return v
}

func tokensOf(t *duel.Tokens) Tokens {
	return Tokens{Gems: tv.GemsOf(t[:duel.NumColours]), Pearl: int(t[duel.Pearl]), Gold: int(t[duel.Gold])}
}

// View is the game as viewer sees it, with the episode's fields, and as a
// text board (turnbased.Rules).
func (g *game) View(viewer int, episode tv.Episode) (view any, board string) {
	v := View(g.state(), viewer)
	v.Episode = episode
	return v, Board(&v)
}
