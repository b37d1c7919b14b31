package splendorenv

import (
	"github.com/splendor-rl/splendor/env/splendor"
	tv "github.com/splendor-rl/splendor/env/tableview"
	"github.com/splendor-rl/splendor/env/turnbased"
)

// StateView is a Splendor state as JSON (docs/trace.md): the referee's view
// (tv.Referee) has everything, as `splendorctl trace` writes it; a seat's
// view leaves out what that seat cannot see.
type StateView struct {
	Notation   string   `json:"notation,omitempty"` // referee only: it spells the decks
	Players    int      `json:"players"`
	Seat       int      `json:"seat"`
	Phase      string   `json:"phase"`
	Payment    string   `json:"payment"`          // the payment rule: auto or choose
	Buying     *int     `json:"buying,omitempty"` // phase pay: the card being paid for
	Due        *tv.Gems `json:"due,omitempty"`    // phase pay: the gems still due
	Turn       int      `json:"turn"`
	FinalRound bool     `json:"final_round"`
	Passes     int      `json:"passes"`
	Bank       Tokens   `json:"bank"`
	Nobles     []*int   `json:"nobles"`
	Market     [][]*int `json:"market"`
	tv.Piles
	Seats []SeatView `json:"seats"`
	tv.Episode
}

// Tokens counts tokens per colour, gold included.
type Tokens struct {
	tv.Gems
	Gold int `json:"gold"`
}

// SeatView is one seat's tokens, cards and nobles.
type SeatView struct {
	Tokens   Tokens        `json:"tokens"`
	Bonuses  tv.Gems       `json:"bonuses"`
	Points   int           `json:"points"`
	Bought   []int         `json:"bought"`
	Reserved []tv.Reserved `json:"reserved"`
	Nobles   []int         `json:"nobles"`
}

// View is s as viewer sees it: tv.Referee, or a seat, whose view has no
// notation, no deck order and no card of another seat's blind reserves.
func View(s *splendor.State, viewer int) StateView {
	v := StateView{Players: int(s.NumPlayers), Seat: int(s.Seat), Phase: s.Phase.String(), Turn: int(s.Turn),
		FinalRound: s.FinalRound, Passes: int(s.Passes), Bank: tokensOf(&s.Bank), Payment: turnbased.PaymentAuto}
	if viewer == tv.Referee {
		v.Notation = s.String()
	}
	if s.ChoosePayment {
		v.Payment = turnbased.PaymentChoose
	}
	if s.Phase == splendor.PhasePay {
		due := tv.GemsOf(s.Due[:])
		v.Buying, v.Due = tv.Slot(int(s.Buying), true), &due
	}
	for _, n := range s.Nobles {
		v.Nobles = append(v.Nobles, tv.Slot(int(n), n != splendor.NoNoble))
	}
	for l := range s.Market {
		row := []*int{}
		for _, c := range s.Market[l] {
			row = append(row, tv.Slot(int(c), c != splendor.NoCard))
		}
		v.Market = append(v.Market, row)
	}
	v.Piles = tv.PilesOf(splendor.NumLevels, func(l int) []splendor.Card { return s.Decks[l][:s.DeckSize[l]] },
		viewer)
	for i := 0; i < int(s.NumPlayers); i++ {
		v.Seats = append(v.Seats, seatView(&s.Players[i], i, viewer))
	}
	return v
}

func seatView(p *splendor.Player, seat, viewer int) SeatView {
	return SeatView{Tokens: tokensOf(&p.Tokens), Bonuses: tv.GemsOf(p.Bonus[:]), Points: int(p.Points),
		Bought: tv.Members(splendor.NumCards, p.Bought.Has), Nobles: tv.Members(splendor.NumNobleTiles, p.Nobles.Has),
		Reserved: tv.Hand(p.Reserved[:p.NumReserved], p.Blind, func(c splendor.Card) uint8 { return c.Info().Level },
			seat, viewer)}
}

func tokensOf(t *splendor.Tokens) Tokens {
	return Tokens{Gems: tv.GemsOf(t[:splendor.NumColours]), Gold: int(t[splendor.Gold])}
}

// View is the game as viewer sees it, with the episode's fields, and as a
// text board (turnbased.Rules).
func (g *game) View(viewer int, episode tv.Episode) (view any, board string) {
	v := View(g.state(), viewer)
	v.Episode = episode
	return v, Board(&v)
}
