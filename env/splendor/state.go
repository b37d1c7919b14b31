// Package splendor is the rules engine for Splendor (2–4 players): state,
// legal actions and their effects, nothing else. It imports only the standard
// library and the project's game-agnostic internal/ packages (the portable
// RNG, bit sets, notation and CSV building blocks) so that every layer above
// can trust it and it can be tested through its public API alone.
//
// A State is a plain value of fixed-size arrays: assigning it clones it.
// A turn is split into decisions by the same seat (see Phase); every decision
// is one index of a single fixed action space (see Action).
package splendor

import (
	"errors"
	"fmt"

	"github.com/splendor-rl/splendor/internal/deck"
	"github.com/splendor-rl/splendor/internal/notation"
	"github.com/splendor-rl/splendor/internal/rng"
)

// Limits of a game.
const (
	MinPlayers   = 2
	MaxPlayers   = 4
	TokenLimit   = 10 // tokens a seat may hold at the end of its turn
	WinningScore = 15 // prestige that triggers the final round
)

// Phase says which kind of decision the seat to act faces. The phases of a
// turn come in this order; each but main may be skipped.
type Phase uint8

const (
	PhaseMain        Phase = iota // take, reserve, buy or pass
	PhasePay                      // payment "choose": pay gold instead of a gem held, or not
	PhaseReturn                   // over 10 tokens: return one
	PhaseChooseNoble              // several nobles qualify: pick one
	PhaseOver                     // the game has ended
)

var phaseNames = [...]string{"main", "pay", "return", "noble", "over"}

func (p Phase) String() string { return notation.Name(phaseNames[:], int(p), "phase?") }

// Player is one seat's holdings. Bonus and Points follow from Bought and
// Nobles; they are kept because every legal-move check reads them.
type Player struct {
	Tokens   Tokens
	Bonus    [NumColours]uint8
	Points   uint8
	Bought   CardSet
	Reserved [MaxReserved]Card // the first NumReserved are in hand
	// NumReserved counts the reserved cards in hand.
	NumReserved uint8
	// Blind has bit i set when Reserved[i] came from a deck top and is hidden
	// from the other seats.
	Blind  uint8
	Nobles NobleSet
}

// State is a whole game, hidden information (deck order, blind reserves)
// included. Copying a State clones the game.
type State struct {
	NumPlayers uint8
	Seat       uint8 // the seat to act
	Phase      Phase
	// FinalRound is set once a seat ends a turn with 15+ points: the round is
	// completed, then the game ends.
	FinalRound bool
	// ChoosePayment lets a buyer decide, as the rulebook allows, whether gold
	// pays for gems it holds (phase pay); off (the default) the engine spends
	// gems before gold. It is a rule of the game: set it before the first
	// decision, never during a game.
	ChoosePayment bool
	// Buying is the card being paid for in phase pay: it has left the market
	// or the reserve but is not the seat's yet. NoCard outside phase pay.
	Buying Card
	// Due is what is still to pay for Buying, per gem colour: the seat holds
	// that many gems of each colour and pays with them unless it chooses
	// gold instead. Zero outside phase pay.
	Due [NumColours]uint8
	// Passes counts consecutive turns in which nothing happened; a full round
	// of them means nothing can ever change and the game is Blocked.
	Passes uint8
	Turn   uint32 // turns completed since the start
	Bank   Tokens
	Market [NumLevels][MarketSlots]Card
	// Decks holds each level's undrawn cards; the top is Decks[l][DeckSize[l]-1].
	Decks    [NumLevels][maxDeckSize]Card
	DeckSize [NumLevels]uint8
	Nobles   [MaxNobles]Noble // revealed nobles; NoNoble once visited or unused
	Players  [MaxPlayers]Player
}

// ToPlay is the seat to act.
func (s *State) ToPlay() int { return int(s.Seat) }

// Seats is the number of players at the table.
func (s *State) Seats() int { return int(s.NumPlayers) }

// Points is seat's prestige.
func (s *State) Points(seat int) int { return int(s.Players[seat].Points) }

// Progress is where the game stands: the seat to act, the turns completed
// since the start, and whether it is over (one call for a generic caller,
// to which each call is an indirect one).
func (s *State) Progress() (toPlay int, turns uint32, over bool) {
	return int(s.Seat), s.Turn, s.Phase == PhaseOver
}

// setup lists, per player count, gem tokens per colour and nobles revealed.
var setup = [MaxPlayers + 1]struct{ gems, nobles uint8 }{
	2: {4, 3}, 3: {5, 4}, 4: {7, 5},
}

// GoldTokens is the gold supply for every player count.
const GoldTokens = 5

// ErrPlayers reports an unsupported player count.
var ErrPlayers = errors.New("splendor: players must be 2, 3 or 4")

// New deals a game for players seats: decks and nobles are shuffled by a
// SplitMix64 stream seeded with seed, so the same seed deals the same game on
// every machine. Seat 0 moves first.
func New(players int, seed uint64) (State, error) {
	var s State
	if players < MinPlayers || players > MaxPlayers {
		return s, fmt.Errorf("%w, got %d", ErrPlayers, players)
	}
	r := rng.New(seed)
	s.NumPlayers = uint8(players)
	s.Buying = NoCard
	for g := White; g <= Black; g++ {
		s.Bank[g] = setup[players].gems
	}
	s.Bank[Gold] = GoldTokens
	for l := 0; l < NumLevels; l++ {
		s.dealLevel(l, &r)
	}
	s.revealNobles(int(setup[players].nobles), &r)
	for i := range s.Players {
		s.Players[i].Reserved = [MaxReserved]Card{NoCard, NoCard, NoCard}
	}
	return s, nil
}

func (s *State) dealLevel(l int, r *rng.Rand) {
	n := int(levelStart[l+1] - levelStart[l])
	s.DeckSize[l] = deck.Deal(s.Decks[l][:], levelStart[l], n, NoCard, r)
	for slot := 0; slot < MarketSlots; slot++ {
		s.Market[l][slot] = s.draw(l)
	}
}

func (s *State) revealNobles(n int, r *rng.Rand) {
	var all [NumNobleTiles]Noble
	for i := range all {
		all[i] = Noble(i)
	}
	rng.Shuffle(r, all[:])
	for i := range s.Nobles {
		s.Nobles[i] = NoNoble
		if i < n {
			s.Nobles[i] = all[i]
		}
	}
}

// draw takes the top card of level l's deck, or NoCard when it is empty.
func (s *State) draw(l int) Card { return deck.Draw(s.Decks[l][:], &s.DeckSize[l], NoCard) }

// Over reports whether the game has ended.
func (s *State) Over() bool { return s.Phase == PhaseOver }

// Blocked reports a game that ended because a full round passed with no
// seat able to act: nothing could ever change again, and nobody wins.
func (s *State) Blocked() bool {
	return s.Phase == PhaseOver && s.Passes >= s.NumPlayers
}

// Winners returns the set of winning seats (bit i for seat i) once the game is
// over: most points, then fewest cards bought; a remaining tie shares the win.
// It is empty while the game runs and for a Blocked game.
func (s *State) Winners() uint8 {
	if s.Phase != PhaseOver || s.Blocked() {
		return 0
	}
	var winners uint8
	best := -1
	bestCards := 0
	for i := 0; i < int(s.NumPlayers); i++ {
		p := &s.Players[i]
		pts, n := int(p.Points), p.Bought.Len()
		switch {
		case pts > best || (pts == best && n < bestCards):
			winners, best, bestCards = 1<<i, pts, n
		case pts == best && n == bestCards:
			winners |= 1 << i
		}
	}
	return winners
}
