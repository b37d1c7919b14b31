// Package duel is the rules engine for Splendor Duel (two players): state,
// legal actions and their effects, nothing else. It imports only the
// standard library and the project's game-agnostic internal/ packages (the
// portable RNG, bit sets, notation and CSV building blocks) so that every
// layer above can trust it and it can be tested through its public API
// alone.
//
// A State is a plain value of fixed-size arrays: assigning it clones it,
// future bag draws included (see State.Chance). A turn is split into
// decisions by the same seat (see Phase); every decision is one index of a
// single fixed action space (see Action).
package duel

import (
	"math/bits"

	"github.com/splendor-rl/splendor/internal/deck"
	"github.com/splendor-rl/splendor/internal/notation"
	"github.com/splendor-rl/splendor/internal/rng"
)

// Limits of a game.
const (
	NumPlayers    = 2
	TokenLimit    = 10 // tokens a seat may hold at the end of its turn
	NumPrivileges = 3
	PointsToWin   = 20 // prestige on cards and royals
	CrownsToWin   = 10
	ColourToWin   = 10 // prestige on cards of one bonus colour
)

// RoyalThresholds are the crown totals at which a seat takes a royal card.
var RoyalThresholds = [2]uint8{3, 6}

// Phase says which kind of decision the seat to act faces.
type Phase uint8

const (
	PhaseMain    Phase = iota // privileges, replenish, then take, gold or buy (or pass)
	PhaseReserve              // took gold: choose the card to reserve
	PhasePay                  // variant "choose payment": pay with gold instead of a token held, or not
	PhaseJoker                // bought a joker: choose its colour
	PhaseToken                // token ability: choose the cell
	PhaseSteal                // steal ability: choose the kind
	PhaseRoyal                // 3 or 6 crowns: choose a royal card
	PhaseReturn               // over 10 tokens at the end of the turn: return one
	PhaseOver                 // the game has ended
)

var phaseNames = [...]string{"main", "reserve", "pay", "joker", "token", "steal", "royal", "return", "over"}

func (p Phase) String() string { return notation.Name(phaseNames[:], int(p), "phase?") }

// Player is one seat's holdings. Bonus, ColourPoints, Points and Crowns
// follow from Bought, Royals and the joker colours; they are kept because
// every legal-move and victory check reads them.
type Player struct {
	Tokens     Tokens
	Privileges uint8
	Bonus      [NumColours]uint8 // a joker counts for its chosen colour
	// ColourPoints is the prestige on cards of each bonus colour (a joker's
	// chosen colour included, cards without bonus in none).
	ColourPoints [NumColours]uint8
	Points       uint8 // cards and royals
	Crowns       uint8
	Bought       CardSet
	Reserved     [MaxReserved]Card // the first NumReserved are in hand
	NumReserved  uint8
	// Blind has bit i set when Reserved[i] came from a deck top and is hidden
	// from the opponent.
	Blind  uint8
	Royals RoyalSet
}

// State is a whole game, hidden information (deck order, blind reserves, the
// bag's future draws) included. Copying a State clones the game.
type State struct {
	Seat  uint8 // the seat to act
	Phase Phase
	// Passes counts consecutive turns in which the seat could do nothing; two
	// of them mean nothing can ever change and the game is Blocked.
	Passes uint8
	// Again is set by an again ability: the seat plays another turn after
	// this one.
	Again bool
	// Replenished is set once the seat replenished the board this turn: it
	// may no longer use privileges or replenish.
	Replenished bool
	// Pending is the card being paid for (phase pay: not the seat's yet), or
	// the bought card whose joker colour or token ability is being decided
	// (phases joker and token); NoCard otherwise.
	Pending Card
	// ChoosePayment turns on the variant in which a buyer may pay with gold
	// for a gem or pearl it holds (phase pay); off, gems and pearls are
	// always spent first. It is a rule of the game, fixed from the deal.
	ChoosePayment bool
	// Due is what is left to pay for Pending in phase pay, by cost kind
	// (white, blue, green, red, black, pearl): the seat's own tokens cover
	// it, unless it chooses gold instead. Zero outside phase pay.
	Due  [NumCostKinds]uint8
	Turn uint32 // turns completed since the start
	// Chance seeds the next replenish: it draws the bag's tokens with
	// rng.New(Chance) and then sets Chance to that generator's next output.
	// A resampler may set it to redraw the bag's unseen future.
	Chance  uint64
	Bag     Tokens        // the bag's contents, by kind; their order is not decided until drawn
	Board   [NumCells]Gem // the token on each cell, NoGem when empty
	Pyramid [PyramidSlots]Card
	// Decks holds each level's undrawn cards; the top is Decks[l][DeckSize[l]-1].
	Decks    [NumLevels][maxDeckSize]Card
	DeckSize [NumLevels]uint8
	// JokerColour is the colour each joker card (by JokerOrdinal) was given
	// when bought, NoGem until then.
	JokerColour [NumJokers]Gem
	Players     [NumPlayers]Player
}

// ToPlay is the seat to act.
func (s *State) ToPlay() int { return int(s.Seat) }

// Seats is the number of players: two.
func (s *State) Seats() int { return NumPlayers }

// Points is seat's prestige.
func (s *State) Points(seat int) int { return int(s.Players[seat].Points) }

// Progress is where the game stands: the seat to act, the turns completed
// since the start, and whether it is over (one call for a generic caller,
// to which each call is an indirect one).
func (s *State) Progress() (toPlay int, turns uint32, over bool) {
	return int(s.Seat), s.Turn, s.Phase == PhaseOver
}

// New deals a game from seed: the decks are shuffled and the board is filled
// from the bag by a SplitMix64 stream, so the same seed deals the same game
// on every machine. Seat 0 moves first; seat 1 starts with a privilege.
func New(seed uint64) State {
	var s State
	r := rng.New(seed)
	s.Pending = NoCard
	for l := 0; l < NumLevels; l++ {
		s.dealLevel(l, &r)
	}
	for i := range s.Players {
		s.Players[i].Reserved = [MaxReserved]Card{NoCard, NoCard, NoCard}
	}
	for i := range s.JokerColour {
		s.JokerColour[i] = NoGem
	}
	for c := range s.Board {
		s.Board[c] = NoGem
	}
	s.Bag = Supply
	s.Chance = r.Uint64()
	s.replenish()
	s.Players[1].Privileges = 1
	return s
}

func (s *State) dealLevel(l int, r *rng.Rand) {
	n := int(levelStart[l+1] - levelStart[l])
	s.DeckSize[l] = deck.Deal(s.Decks[l][:], levelStart[l], n, NoCard, r)
	for k := PyramidStart[l]; k < PyramidStart[l+1]; k++ {
		s.Pyramid[k] = s.draw(l)
	}
}

// draw takes the top card of level l's deck, or NoCard when it is empty.
func (s *State) draw(l int) Card { return deck.Draw(s.Decks[l][:], &s.DeckSize[l], NoCard) }

// refillPyramid deals the top card of its level's deck into every empty
// pyramid slot (an empty deck leaves the slot empty). It runs as the turn
// passes, not when the card is taken: the publisher's ruling, as Board Game
// Arena applies it, is that the new card is not seen before the turn ends.
func (s *State) refillPyramid() {
	for gaps := s.pyramidGaps(); gaps != 0; gaps &= gaps - 1 {
		k := bits.TrailingZeros32(gaps)
		s.Pyramid[k] = s.draw(levelOf(k))
	}
}

// pyramidGaps is the set of empty slots, bit k for slot k, read twelve at
// once: it runs at the end of every turn, and most turns leave no gap. A
// card is below 128 and NoCard is 0xff, so bit 7 of a slot's byte marks a
// gap.
func (s *State) pyramidGaps() uint32 {
	p := &s.Pyramid
	lo := uint64(p[0]) | uint64(p[1])<<8 | uint64(p[2])<<16 | uint64(p[3])<<24 |
		uint64(p[4])<<32 | uint64(p[5])<<40 | uint64(p[6])<<48 | uint64(p[7])<<56
	hi := uint64(p[8]) | uint64(p[9])<<8 | uint64(p[10])<<16 | uint64(p[11])<<24
	return gatherFlags(lo&byteTops) | gatherFlags(hi&byteTops)<<8
}

// replenish draws every token of the bag in random order onto the empty
// cells along the spiral. The bag never holds more tokens than there are
// empty cells: the box has as many tokens as the board has cells.
func (s *State) replenish() {
	r := rng.New(s.Chance)
	bag := s.Bag.packed()
	left := s.Bag.Total()
	for _, c := range Spiral {
		if left == 0 {
			break
		}
		if s.Board[c] != NoGem {
			continue
		}
		g := kindAt(bag, r.Intn(left))
		bag -= 1 << (8 * g)
		s.Board[c] = g
		left--
	}
	s.Bag = unpackTokens(bag)
	s.Chance = r.Uint64()
}

// kindAt is the kind of the k-th token (from 0) of a packed bag whose
// tokens are lined up kind by kind. Byte g of bag*byteOnes counts the tokens
// of kinds up to g; the kinds wholly before the k-th token are those whose
// count is at most k, and a byte's top bit survives (k | top) − count
// exactly then. The draw is random, so a branch-free count beats a loop.
func kindAt(bag uint64, k int) Gem {
	upTo := bag * byteOnes
	return Gem(bits.OnesCount64(((uint64(k)*byteOnes | byteTops) - upTo) & byteTops))
}

// levelOf is the level of pyramid slot k.
func levelOf(k int) int {
	switch {
	case k < PyramidStart[1]:
		return 0
	case k < PyramidStart[2]:
		return 1
	}
	return 2
}

// PrivilegeSupply is the number of privileges beside the board.
func (s *State) PrivilegeSupply() uint8 {
	return NumPrivileges - s.Players[0].Privileges - s.Players[1].Privileges
}

// Over reports whether the game has ended.
func (s *State) Over() bool { return s.Phase == PhaseOver }

// Blocked reports a game that ended because both seats in turn could do
// nothing: nothing could ever change again, and nobody wins.
func (s *State) Blocked() bool {
	return s.Phase == PhaseOver && s.Passes >= NumPlayers
}

// Winners returns the winning seat as a set (bit i for seat i) once the game
// is over: the seat that met a victory condition at the end of its turn,
// which is the seat left to act. It is empty while the game runs and for a
// Blocked game.
func (s *State) Winners() uint8 {
	if s.Phase != PhaseOver || s.Blocked() {
		return 0
	}
	return 1 << s.Seat
}

// Victory is a set of victory conditions.
type Victory uint8

const (
	VictoryPoints Victory = 1 << iota // 20+ prestige
	VictoryCrowns                     // 10+ crowns
	VictoryColour                     // 10+ prestige on cards of one colour
)

func (v Victory) String() string {
	names := ""
	for i, n := range []string{"points", "crowns", "colour"} {
		if v&(1<<i) != 0 {
			if names != "" {
				names += "+"
			}
			names += n
		}
	}
	if names == "" {
		return "none"
	}
	return names
}

// Victory is the set of victory conditions p meets.
func (p *Player) Victory() Victory {
	var v Victory
	if p.Points >= PointsToWin {
		v |= VictoryPoints
	}
	if p.Crowns >= CrownsToWin {
		v |= VictoryCrowns
	}
	// One test for the five colours instead of a branch each: a term goes
	// negative once its colour reaches ColourToWin.
	const below = ColourToWin - 1
	c := &p.ColourPoints
	if (below-int(c[0]))|(below-int(c[1]))|(below-int(c[2]))|(below-int(c[3]))|(below-int(c[4])) < 0 {
		v |= VictoryColour
	}
	return v
}
