package duelenv

import (
	"github.com/splendor-rl/splendor/env/duel"
	tv "github.com/splendor-rl/splendor/env/tableview"
)

// Components is what is printed on Splendor Duel's cards and royals, by id,
// read from the engine's tables: what a viewer needs to draw a card from
// its id.
type Components struct {
	Cards  []CardFace  `json:"cards"`
	Royals []RoyalFace `json:"royals"`
	// Spiral is the order in which a replenish fills the board's cells
	// (index row·5 + column, as the view's board), printed on the board.
	Spiral []int `json:"spiral"`
}

// CardFace is one jewel card. Its Bonus is the bonus colour, "joker"
// (chosen when bought) or "none".
type CardFace struct {
	tv.CardFace[Cost]
	Bonuses int    `json:"bonuses"` // how many bonuses of that colour: 0, 1 or 2
	Crowns  int    `json:"crowns"`
	Ability string `json:"ability"` // none, again, token, privilege or steal
}

// RoyalFace is one royal card.
type RoyalFace struct {
	ID      int    `json:"id"`
	Points  int    `json:"points"`
	Ability string `json:"ability"`
}

func components() any {
	var c Components
	for id := duel.Card(0); id < duel.NumCards; id++ {
		f := id.Info()
		bonus := f.Colour.String() // "none" for NoGem
		if f.Joker {
			bonus = "joker"
		}
		cost := Cost{Gems: tv.GemsOf(f.Cost[:duel.NumColours]), Pearl: int(f.Cost[duel.Pearl])}
		c.Cards = append(c.Cards, CardFace{CardFace: tv.CardFace[Cost]{ID: int(id), Level: int(f.Level) + 1,
			Bonus: bonus, Points: int(f.Points), Cost: cost}, Bonuses: int(f.Bonuses), Crowns: int(f.Crowns),
			Ability: f.Ability.String()})
	}
	for r := duel.Royal(0); r < duel.NumRoyals; r++ {
		f := r.Info()
		c.Royals = append(c.Royals, RoyalFace{ID: int(r), Points: int(f.Points), Ability: f.Ability.String()})
	}
	for _, cell := range duel.Spiral {
		c.Spiral = append(c.Spiral, int(cell))
	}
	return c
}
