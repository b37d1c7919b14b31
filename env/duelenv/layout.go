package duelenv

import (
	"slices"
	"strconv"

	"github.com/splendor-rl/splendor/env"
	"github.com/splendor-rl/splendor/env/duel"
)

// layout names the observation's blocks (observe.go's offsets) for the
// env's spec; features.go's block has featuresLayout.
var layout = []env.Block{
	env.Rows("phase", offPhase, []string{"main", "reserve", "pay", "joker", "token", "steal", "royal", "return"}),
	env.Rows("turn", offReplenish, []string{"replenished", "again", "round", "passes", "my_seat", "to_play"}),
	env.Rows("supply", offSupply, []string{"privileges"}),
	env.Rows("bag", offBag, gems("", duel.NumTokenKinds)),
	env.Rows("board", offBoard, gems("", duel.NumTokenKinds), duel.NumCells),
	env.Rows("pyramid", offPyramid, cardFields, duel.PyramidSlots),
	env.Rows("decks", offDecks, []string{"level_1", "level_2", "level_3"}),
	env.Rows("royals", offRoyals, royals),
	env.Rows("pending", offPending, cardFields),
	env.Rows("due", offDue, gems("", duel.NumCostKinds)),
	env.Rows("seats", offSeats, seatFields).Every(duel.NumPlayers, seatSize),
	env.Rows("hands", offSeats+seatHand, slices.Concat(cardFields, []string{"hidden", "level"}), duel.MaxReserved).
		Every(duel.NumPlayers, seatSize),
}

var (
	// cardFields are a card's values (cardFeatures).
	cardFields = slices.Concat([]string{"present", "points", "crowns"}, gems("colour_", duel.NumColours),
		[]string{"joker", "no_bonus", "bonuses", "ability_again", "ability_token", "ability_privilege", "ability_steal"},
		gems("cost_", duel.NumCostKinds))
	royals     = env.Named("royal_", duel.NumRoyals, func(r int) string { return strconv.Itoa(r + 1) })
	seatFields = slices.Concat(gems("tokens_", duel.NumTokenKinds), []string{"privileges"}, gems("bonus_", duel.NumColours),
		gems("points_", duel.NumColours), []string{"points", "crowns"}, royals, []string{"cards", "reserved"})
)

// featuresLayout names the derived block's parts (features.go), from the
// block's start.
var featuresLayout = []env.Block{
	env.Rows("pyramid_short", featPyramid, shortFields, duel.PyramidSlots).Every(duel.NumPlayers, featSeatSize),
	env.Rows("hands_short", featReserved, shortFields, duel.MaxReserved).Every(duel.NumPlayers, featSeatSize),
	env.Rows("goals", featGoals, slices.Concat([]string{"points", "crowns", "colour"}, gems("colour_", duel.NumColours),
		[]string{"next_royal"})).Every(duel.NumPlayers, featSeatSize),
}

// shortFields are a shortfall block's values (turnbased.WriteCardShortfall).
var shortFields = slices.Concat(gems("lacks_", duel.NumCostKinds), []string{"gold_short", "affordable"})

// gems are the first n token kinds' names after prefix.
func gems(prefix string, n int) []string {
	return env.Named(prefix, n, func(g int) string { return duel.Gem(g).String() })
}
