package duel

import (
	_ "embed"
	"fmt"
	"slices"

	"github.com/splendor-rl/splendor/internal/csvdata"
	"github.com/splendor-rl/splendor/internal/notation"
)

// Card identifies a jewel card by its row in duel_cards.csv (0–66, ordered
// by level, bonus, points). NoCard marks an empty slot.
type Card uint8

// NoCard marks an empty pyramid or reserve slot.
const NoCard Card = 0xff

// Component counts fixed by the game box.
const (
	NumCards    = 67
	NumLevels   = 3
	NumJokers   = 9 // cards whose bonus colour is chosen when bought
	NumRoyals   = 4
	MaxReserved = 3
	maxDeckSize = 30 // level 1
)

// Ability is the one-time effect of a card or royal, resolved when taken.
type Ability uint8

const (
	AbilityNone      Ability = iota
	AbilityAgain             // the seat plays another turn after this one
	AbilityToken             // take a token of the card's colour from the board
	AbilityPrivilege         // take a privilege
	AbilitySteal             // take a gem or pearl token from the opponent
)

var abilityNames = [...]string{"none", "again", "token", "privilege", "steal"}

func (a Ability) String() string { return notation.Name(abilityNames[:], int(a), "ability?") }

// CardInfo is what is printed on a jewel card.
type CardInfo struct {
	Level uint8 // 0, 1, 2 for levels 1, 2, 3
	// Colour is the bonus colour, NoGem for a joker (its colour is chosen
	// when bought) and for a card without bonus.
	Colour  Gem
	Joker   bool
	Bonuses uint8 // 0, 1 or 2 bonuses of the colour
	Points  uint8
	Crowns  uint8
	Ability Ability
	Cost    [NumCostKinds]uint8 // white, blue, green, red, black, pearl
}

// Royal identifies a royal card by its row in duel_royals.csv (0–3).
type Royal uint8

// RoyalInfo is what is printed on a royal card.
type RoyalInfo struct {
	Points  uint8
	Ability Ability
}

//go:embed duel_cards.csv
var cardsCSV string

//go:embed duel_royals.csv
var royalsCSV string

var (
	cards      [NumCards]CardInfo
	royals     [NumRoyals]RoyalInfo
	levelStart [NumLevels + 1]Card // cards of level l are levelStart[l]..levelStart[l+1]-1
	// jokerOrdinal numbers the joker cards 0–8 (index into State.JokerColour);
	// -1 for the others.
	jokerOrdinal [NumCards]int8
)

func init() {
	loadCards()
	initCostWords()
	loadRoyals()
	loadBoard()
	initActions()
}

// Info returns the printed face of card c.
func (c Card) Info() CardInfo { return cards[c] }

// Info returns the printed face of royal r.
func (r Royal) Info() RoyalInfo { return royals[r] }

// JokerOrdinal is c's index into State.JokerColour, or -1 when c is not a joker.
func (c Card) JokerOrdinal() int { return int(jokerOrdinal[c]) }

const cardsHeader = "level,bonus,bonus_count,points,crowns,ability,white,blue,green,red,black,pearl"

func loadCards() {
	jokers := 0
	for i, f := range csvdata.Rows(cardsCSV, cardsHeader, NumCards) {
		level := f.Int(0) - 1
		info := CardInfo{Level: uint8(level), Colour: NoGem, Bonuses: uint8(f.Int(2)),
			Points: uint8(f.Int(3)), Crowns: uint8(f.Int(4)), Ability: abilityByName(f[5])}
		switch g := gemByName(f[1]); {
		case f[1] == "joker":
			info.Joker = true
		case f[1] != "none" && g <= Black:
			info.Colour = g
		case f[1] != "none":
			panic(fmt.Sprintf("duel: card %d has bonus %q", i, f[1]))
		}
		for k := 0; k < NumCostKinds; k++ {
			info.Cost[k] = uint8(f.Int(6 + k))
		}
		cards[i] = info
		jokerOrdinal[i] = -1
		if info.Joker {
			jokerOrdinal[i] = int8(jokers)
			jokers++
		}
		levelStart[level+1] = Card(i + 1)
	}
	if jokers != NumJokers || levelStart[NumLevels] != NumCards {
		panic("duel: card data does not match the box")
	}
}

func loadRoyals() {
	for i, f := range csvdata.Rows(royalsCSV, "points,ability", NumRoyals) {
		royals[i] = RoyalInfo{Points: uint8(f.Int(0)), Ability: abilityByName(f[1])}
		if royals[i].Ability == AbilityToken { // it has no colour to take
			panic("duel: a royal card with the token ability")
		}
	}
}

func gemByName(name string) Gem {
	if g := slices.Index(gemNames[:], name); g >= 0 {
		return Gem(g)
	}
	return NoGem
}

func abilityByName(name string) Ability {
	if a := slices.Index(abilityNames[:], name); a >= 0 {
		return Ability(a)
	}
	panic(fmt.Sprintf("duel: unknown ability %q", name))
}
