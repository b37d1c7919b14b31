package main

import "github.com/splendor-rl/splendor/env/splendor"

// stateView is the JSON form of a whole state, hidden information included;
// docs/trace.md documents every field.
type stateView struct {
	Notation   string     `json:"notation"`
	Players    int        `json:"players"`
	Seat       int        `json:"seat"`
	Phase      string     `json:"phase"`
	Payment    string     `json:"payment"`          // the payment rule: auto or choose
	Buying     *int       `json:"buying,omitempty"` // phase pay: the card being paid for
	Due        *gemsView  `json:"due,omitempty"`    // phase pay: the gems still due
	Turn       int        `json:"turn"`
	FinalRound bool       `json:"final_round"`
	Passes     int        `json:"passes"`
	Bank       tokensView `json:"bank"`
	Nobles     []*int     `json:"nobles"`
	Market     [][]*int   `json:"market"`
	Decks      [][]int    `json:"decks"`
	Seats      []seatView `json:"seats"`
}

type tokensView struct {
	gemsView
	Gold int `json:"gold"`
}

// gemsView is one count per gem colour: bonuses, or the colour part of tokens.
type gemsView struct {
	White int `json:"white"`
	Blue  int `json:"blue"`
	Green int `json:"green"`
	Red   int `json:"red"`
	Black int `json:"black"`
}

type seatView struct {
	Tokens   tokensView     `json:"tokens"`
	Bonuses  gemsView       `json:"bonuses"`
	Points   int            `json:"points"`
	Bought   []int          `json:"bought"`
	Reserved []reservedView `json:"reserved"`
	Nobles   []int          `json:"nobles"`
}

type reservedView struct {
	Card   int  `json:"card"`
	Hidden bool `json:"hidden"` // reserved blind from a deck: only its owner knows it
}

func viewState(s *splendor.State) stateView {
	v := stateView{Notation: s.String(), Players: int(s.NumPlayers), Seat: int(s.Seat),
		Phase: s.Phase.String(), Turn: int(s.Turn), FinalRound: s.FinalRound, Passes: int(s.Passes),
		Bank: viewTokens(&s.Bank), Payment: paymentAuto}
	if s.ChoosePayment {
		v.Payment = paymentChoose
	}
	if s.Phase == splendor.PhasePay {
		due := viewGems(s.Due[:])
		v.Buying, v.Due = slot(int(s.Buying), true), &due
	}
	for _, n := range s.Nobles {
		v.Nobles = append(v.Nobles, slot(int(n), n != splendor.NoNoble))
	}
	for l := range s.Market {
		row := []*int{}
		for _, c := range s.Market[l] {
			row = append(row, slot(int(c), c != splendor.NoCard))
		}
		v.Market = append(v.Market, row)
		deck := []int{}
		for _, c := range s.Decks[l][:s.DeckSize[l]] {
			deck = append(deck, int(c))
		}
		v.Decks = append(v.Decks, deck)
	}
	for i := 0; i < int(s.NumPlayers); i++ {
		v.Seats = append(v.Seats, viewSeat(&s.Players[i]))
	}
	return v
}

func viewSeat(p *splendor.Player) seatView {
	v := seatView{Tokens: viewTokens(&p.Tokens), Bonuses: viewGems(p.Bonus[:]), Points: int(p.Points),
		Bought: []int{}, Reserved: []reservedView{}, Nobles: []int{}}
	for c := splendor.Card(0); c < splendor.NumCards; c++ {
		if p.Bought.Has(c) {
			v.Bought = append(v.Bought, int(c))
		}
	}
	for r := 0; r < int(p.NumReserved); r++ {
		v.Reserved = append(v.Reserved, reservedView{Card: int(p.Reserved[r]), Hidden: p.Blind&(1<<r) != 0})
	}
	for n := splendor.Noble(0); n < splendor.NumNobleTiles; n++ {
		if p.Nobles.Has(n) {
			v.Nobles = append(v.Nobles, int(n))
		}
	}
	return v
}

func viewTokens(t *splendor.Tokens) tokensView {
	return tokensView{gemsView: viewGems(t[:splendor.NumColours]), Gold: int(t[splendor.Gold])}
}

func viewGems(g []uint8) gemsView {
	return gemsView{White: int(g[0]), Blue: int(g[1]), Green: int(g[2]), Red: int(g[3]), Black: int(g[4])}
}

func slot(id int, ok bool) *int {
	if !ok {
		return nil
	}
	return &id
}
