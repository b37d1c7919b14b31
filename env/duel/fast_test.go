package duel

import (
	"testing"

	"github.com/splendor-rl/splendor/internal/rng"
)

// The hot path reads the board and pays for cards with word tricks; these
// tests hold each trick equal to its plain definition.

func TestBoardCellsMatchesTheBoard(t *testing.T) {
	r := rng.New(3)
	for n := 0; n < 20000; n++ {
		var s State
		var takeable, gold uint32
		for c := range s.Board {
			s.Board[c] = NoGem
			if k := r.Intn(NumTokenKinds + 2); k < NumTokenKinds {
				s.Board[c] = Gem(k)
			}
			switch {
			case s.Board[c] <= Pearl:
				takeable |= 1 << c
			case s.Board[c] == Gold:
				gold |= 1 << c
			}
		}
		gotT, gotG := s.boardCells()
		if gotT != takeable || gotG != gold {
			t.Fatalf("board %v: takeable %025b gold %025b, want %025b %025b", s.Board, gotT, gotG, takeable, gold)
		}
	}
}

func TestShortfallMatchesThePlainSum(t *testing.T) {
	r := rng.New(4)
	for n := 0; n < 20000; n++ {
		c := Card(r.Intn(NumCards))
		p := randomHoldings(&r)
		want := 0
		for k := White; k <= Pearl; k++ {
			have := int(p.Tokens[k])
			if k <= Black {
				have += int(p.Bonus[k])
			}
			want += max(0, int(cards[c].Cost[k])-have)
		}
		if got := shortfall(costWords[c]&priceBytes, p.wallet().have); got != want {
			t.Fatalf("card %d, tokens %v bonus %v: shortfall %d, want %d", c, p.Tokens, p.Bonus, got, want)
		}
	}
}

// The pseudo-kind in the cost words stands for the joker's bonus to copy
// and for the empty slot.
func TestCanBuyMatchesTheRule(t *testing.T) {
	r := rng.New(7)
	for n := 0; n < 20000; n++ {
		c := Card(r.Intn(NumCards + 1))
		if c == NumCards {
			c = NoCard
		}
		p := randomHoldings(&r)
		want := false
		if c != NoCard && (!cards[c].Joker || p.bonusColours() != 0) {
			short := 0
			for k := White; k <= Pearl; k++ {
				need := cards[c].Cost[k]
				if k <= Black {
					need -= min(need, p.Bonus[k])
				}
				short += int(need - min(need, p.Tokens[k]))
			}
			want = short <= int(p.Tokens[Gold])
		}
		w := p.wallet()
		wantBit := uint32(0)
		if want {
			wantBit = 1
		}
		if w.canBuy(c) != want || w.buyable(c) != wantBit {
			t.Fatalf("card %d, tokens %v bonus %v: canBuy %v buyable %d, want %v", c, p.Tokens, p.Bonus, w.canBuy(c), w.buyable(c), want)
		}
	}
}

// randomHoldings is a seat with random tokens (gold at most the box's 3)
// and bonuses, none at all in some colours and often none at all.
func randomHoldings(r *rng.Rand) Player {
	var p Player
	for k := range p.Tokens {
		p.Tokens[k] = uint8(r.Intn(5))
	}
	p.Tokens[Gold] = uint8(r.Intn(int(Supply[Gold]) + 1))
	if r.Intn(4) > 0 {
		for g := range p.Bonus {
			p.Bonus[g] = uint8(max(0, r.Intn(16)-4))
		}
	}
	return p
}

func TestKindAtMatchesTheBag(t *testing.T) {
	r := rng.New(8)
	for n := 0; n < 20000; n++ {
		var bag Tokens
		for k := range bag {
			bag[k] = uint8(r.Intn(int(Supply[k]) + 1))
		}
		if bag.Total() == 0 {
			continue
		}
		k := r.Intn(bag.Total())
		want, left := Gem(0), k
		for left >= int(bag[want]) {
			left -= int(bag[want])
			want++
		}
		if got := kindAt(bag.packed(), k); got != want {
			t.Fatalf("bag %v, token %d: kind %d, want %d", bag, k, got, want)
		}
		if unpackTokens(bag.packed()) != bag {
			t.Fatalf("bag %v does not survive packing", bag)
		}
	}
}

func TestHeldMatchesTheCounts(t *testing.T) {
	r := rng.New(9)
	for n := 0; n < 20000; n++ {
		var tokens Tokens
		var want uint32
		for k := range tokens {
			if r.Intn(3) > 0 {
				tokens[k] = uint8(r.Intn(11))
			}
			if tokens[k] > 0 {
				want |= 1 << k
			}
		}
		if got := tokens.held(); got != want {
			t.Fatalf("tokens %v: held %07b, want %07b", tokens, got, want)
		}
	}
}

func TestLineMasksMatchTheLineCells(t *testing.T) {
	r := rng.New(5)
	var sets []uint32
	for i := 0; i < numLines; i++ { // each line's own cells, then random boards
		var set uint32
		for _, c := range lineCells[i][:actionTable[i].Len] {
			set |= 1 << c
		}
		sets = append(sets, set)
	}
	for n := 0; n < 5000; n++ {
		sets = append(sets, uint32(r.Uint64())&(1<<NumCells-1))
	}
	for _, cells := range sets {
		var got, want ActionSet
		got.addLines(cells)
		for i := 0; i < numLines; i++ {
			all := true
			for _, c := range lineCells[i][:actionTable[i].Len] {
				all = all && cells&(1<<c) != 0
			}
			if all {
				want.Add(i)
			}
		}
		if got != want {
			t.Fatalf("cells %025b: lines %v, want %v", cells, got, want)
		}
	}
}

func TestPyramidGapsMatchTheSlots(t *testing.T) {
	r := rng.New(6)
	for n := 0; n < 20000; n++ {
		var s State
		var gaps uint32
		for k := range s.Pyramid {
			s.Pyramid[k] = Card(r.Intn(NumCards))
			if r.Intn(8) == 0 {
				s.Pyramid[k] = NoCard
				gaps |= 1 << k
			}
		}
		if got := s.pyramidGaps(); got != gaps {
			t.Fatalf("pyramid %v: gaps %012b, want %012b", s.Pyramid, got, gaps)
		}
	}
}
