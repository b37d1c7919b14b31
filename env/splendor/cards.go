package splendor

import (
	_ "embed"
	"fmt"

	"github.com/splendor-rl/splendor/internal/csvdata"
)

// Card identifies a development card by its row in splendor_cards.csv (0–89,
// ordered by level, bonus, points). NoCard marks an empty slot.
type Card uint8

// NoCard marks an empty market or reserve slot.
const NoCard Card = 0xff

// Component counts fixed by the game box.
const (
	NumCards      = 90
	NumLevels     = 3
	NumNobleTiles = 10
	MarketSlots   = 4
	MaxReserved   = 3
	MaxNobles     = 5 // nobles revealed with 4 players
	maxDeckSize   = 40
)

// CardInfo is what is printed on a development card.
type CardInfo struct {
	Level  uint8 // 0, 1, 2 for levels I, II, III
	Bonus  Gem
	Points uint8
	Cost   [NumColours]uint8
}

// Noble identifies a noble tile by its row in splendor_nobles.csv (0–9).
type Noble uint8

// NoNoble marks a noble slot whose tile has left the table.
const NoNoble Noble = 0xff

// NoblePoints is the prestige of every noble tile.
const NoblePoints = 3

//go:embed splendor_cards.csv
var cardsCSV string

//go:embed splendor_nobles.csv
var noblesCSV string

var (
	cards      [NumCards]CardInfo
	nobleNeeds [NumNobleTiles][NumColours]uint8
	levelStart [NumLevels + 1]Card // cards of level l are levelStart[l]..levelStart[l+1]-1
)

func init() {
	loadCards()
	loadNobles()
}

// Info returns the printed face of card c.
func (c Card) Info() CardInfo { return cards[c] }

// Needs returns the bonuses noble n requires.
func (n Noble) Needs() [NumColours]uint8 { return nobleNeeds[n] }

func loadCards() {
	rows := csvdata.Rows(cardsCSV, "level,bonus,points,white,blue,green,red,black", NumCards)
	for i, f := range rows {
		bonus, ok := gemByName(f[1])
		if !ok || bonus == Gold {
			panic(fmt.Sprintf("splendor: card %d has bonus %q", i, f[1]))
		}
		level := f.Int(0) - 1
		cards[i] = CardInfo{Level: uint8(level), Bonus: bonus, Points: uint8(f.Int(2))}
		for g := 0; g < NumColours; g++ {
			cards[i].Cost[g] = uint8(f.Int(3 + g))
		}
		levelStart[level+1] = Card(i + 1)
	}
}

func loadNobles() {
	rows := csvdata.Rows(noblesCSV, "points,white,blue,green,red,black", NumNobleTiles)
	for i, f := range rows {
		if f.Int(0) != NoblePoints {
			panic("splendor: noble not worth 3 points")
		}
		for g := 0; g < NumColours; g++ {
			nobleNeeds[i][g] = uint8(f.Int(1 + g))
		}
	}
}
