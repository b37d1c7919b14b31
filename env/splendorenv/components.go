package splendorenv

import (
	"github.com/splendor-rl/splendor/env/splendor"
	tv "github.com/splendor-rl/splendor/env/tableview"
)

// Components is what is printed on Splendor's cards and nobles, by id, read
// from the engine's tables: what a viewer needs to draw a card from its id.
type Components struct {
	Cards  []tv.CardFace[tv.Gems] `json:"cards"`
	Nobles []NobleFace            `json:"nobles"`
}

// NobleFace is one noble tile.
type NobleFace struct {
	ID     int     `json:"id"`
	Points int     `json:"points"`
	Needs  tv.Gems `json:"needs"` // the bonuses it requires
}

func components() any {
	var c Components
	for id := splendor.Card(0); id < splendor.NumCards; id++ {
		f := id.Info()
		c.Cards = append(c.Cards, tv.CardFace[tv.Gems]{ID: int(id), Level: int(f.Level) + 1, Bonus: f.Bonus.String(),
			Points: int(f.Points), Cost: tv.GemsOf(f.Cost[:])})
	}
	for n := splendor.Noble(0); n < splendor.NumNobleTiles; n++ {
		needs := n.Needs()
		c.Nobles = append(c.Nobles, NobleFace{ID: int(n), Points: splendor.NoblePoints, Needs: tv.GemsOf(needs[:])})
	}
	return c
}
