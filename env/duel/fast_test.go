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
		var p Player
		for k := range p.Tokens {
			p.Tokens[k] = uint8(r.Intn(5))
		}
		for g := range p.Bonus {
			p.Bonus[g] = uint8(r.Intn(12))
		}
		want := 0
		for k := White; k <= Pearl; k++ {
			have := int(p.Tokens[k])
			if k <= Black {
				have += int(p.Bonus[k])
			}
			want += max(0, int(cards[c].Cost[k])-have)
		}
		if got := shortfall(costWords[c], p.wallet().have); got != want {
			t.Fatalf("card %d, tokens %v bonus %v: shortfall %d, want %d", c, p.Tokens, p.Bonus, got, want)
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
		for i := range lineBlocks {
			lineBlocks[i].addLines(&got, cells)
		}
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

func TestPyramidHasGapMatchesTheSlots(t *testing.T) {
	r := rng.New(6)
	for n := 0; n < 20000; n++ {
		var s State
		gap := false
		for k := range s.Pyramid {
			s.Pyramid[k] = Card(r.Intn(NumCards))
			if r.Intn(8) == 0 {
				s.Pyramid[k], gap = NoCard, true
			}
		}
		if s.pyramidHasGap() != gap {
			t.Fatalf("pyramid %v: gap %v", s.Pyramid, !gap)
		}
	}
}
