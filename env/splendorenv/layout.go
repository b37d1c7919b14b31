package splendorenv

import (
	"slices"

	"github.com/splendor-rl/splendor/env"
	"github.com/splendor-rl/splendor/env/splendor"
)

// layout names the observation's blocks (observe.go's offsets) for the
// env's spec; features.go's block has featuresLayout.
var layout = []env.Block{
	env.Rows("phase", offPhase, []string{"main", "pay", "return", "noble"}),
	env.Rows("turn", offFinal, []string{"final_round", "round", "passes", "players", "my_seat", "to_play"}),
	env.Rows("bank", offBank, gems("", splendor.NumTokenKinds)),
	env.Rows("decks", offDecks, []string{"level_1", "level_2", "level_3"}),
	env.Rows("due", offDue, gems("", splendor.NumColours)),
	env.Rows("buying", offBuying, cardFields),
	env.Rows("market", offMarket, cardFields, splendor.NumLevels, splendor.MarketSlots),
	env.Rows("nobles", offNobles, slices.Concat([]string{"present"}, gems("needs_", splendor.NumColours)), splendor.MaxNobles),
	env.Rows("seats", offSeats, slices.Concat([]string{"present"}, gems("tokens_", splendor.NumTokenKinds),
		gems("bonus_", splendor.NumColours), []string{"points", "cards", "nobles", "reserved"})).
		Every(splendor.MaxPlayers, seatSize),
	env.Rows("hands", offSeats+seatHand, slices.Concat(cardFields, []string{"hidden", "level"}), splendor.MaxReserved).
		Every(splendor.MaxPlayers, seatSize),
}

// cardFields are a card's values (cardFeatures).
var cardFields = slices.Concat([]string{"present", "points"}, gems("bonus_", splendor.NumColours),
	gems("cost_", splendor.NumColours))

// featuresLayout names the derived block's parts (features.go), from the
// block's start.
var featuresLayout = []env.Block{
	env.Rows("market_short", featMarket, shortFields, splendor.NumLevels, splendor.MarketSlots).
		Every(splendor.MaxPlayers, featSeatSize),
	env.Rows("hands_short", featReserved, shortFields, splendor.MaxReserved).Every(splendor.MaxPlayers, featSeatSize),
	env.Rows("nobles_short", featNobles, slices.Concat(gems("lacks_", splendor.NumColours), []string{"lacks"}), splendor.MaxNobles).
		Every(splendor.MaxPlayers, featSeatSize),
	env.Rows("points_short", featPoints, []string{"points"}).Every(splendor.MaxPlayers, featSeatSize),
}

// shortFields are a shortfall block's values (turnbased.WriteCardShortfall).
var shortFields = slices.Concat(gems("lacks_", splendor.NumColours), []string{"gold_short", "affordable"})

// gems are the first n token kinds' names after prefix.
func gems(prefix string, n int) []string {
	return env.Named(prefix, n, func(g int) string { return splendor.Gem(g).String() })
}
