package duel

import (
	_ "embed"

	"github.com/splendor-rl/splendor/internal/csvdata"
)

// The board is 5×5 cells, numbered row by row from the top left: cell
// row*5+col. Players name a cell by its column letter (a–e, left to right)
// and row digit (1–5, top to bottom): the centre, cell 12, is c3.
const (
	BoardSide = 5
	NumCells  = BoardSide * BoardSide
)

// Direction is the way a line of tokens runs from its first cell.
type Direction uint8

const (
	Right     Direction = iota // along a row
	Down                       // along a column
	DownRight                  // diagonal
	DownLeft                   // anti-diagonal
	NumDirections
)

// MaxLine is the most tokens one take may pick up.
const MaxLine = 3

//go:embed duel_board.csv
var boardCSV string

// Spiral lists the cells in the order a replenish fills them: the centre
// first, then down, left, up, right, turning the same way outwards
// (duel_board.csv, the arrows printed on the board).
var Spiral [NumCells]uint8

func loadBoard() {
	var seen uint32
	for i, f := range csvdata.Rows(boardCSV, "index,row,col", NumCells) {
		row, col := f.Int(1), f.Int(2)
		if f.Int(0) != i || row < 0 || row >= BoardSide || col < 0 || col >= BoardSide {
			panic("duel: board data malformed")
		}
		Spiral[i] = uint8(row*BoardSide + col)
		seen |= 1 << Spiral[i]
	}
	if seen != 1<<NumCells-1 {
		panic("duel: the spiral does not visit every cell once")
	}
}

// CellName spells cell c, e.g. "c3" for the centre.
func CellName(c int) string {
	return string([]byte{'a' + byte(c%BoardSide), '1' + byte(c/BoardSide)})
}

// lineBlock is the set of lines of one length and direction. Their first
// cells span rows [0, rows) and columns [col0, col0+width); the lines are
// numbered row by row from the block's base action index.
type lineBlock struct {
	length, rows, col0, width int
	dir                       Direction
	step                      int    // cell distance between neighbours on the line
	base                      int    // action index of the first line
	first                     uint32 // the first cells, whose lines run on the board
	// pack moves row r of first cells (shifted down by col0) from bit 5r to
	// bit r*width in three steps: rows with bit k of r set move down by
	// 2^k*(5−width) at step k.
	pack [3]struct {
		rows  uint32
		shift int
	}
}

// lineBlocks lists the blocks in action-index order: single tokens, then
// pairs and triples, each by direction.
var lineBlocks = func() []lineBlock {
	blocks := []lineBlock{{length: 1, rows: BoardSide, width: BoardSide, step: 1}}
	steps := [NumDirections]int{1, BoardSide, BoardSide + 1, BoardSide - 1}
	for length := 2; length <= MaxLine; length++ {
		span := BoardSide - length + 1
		for d := Right; d < NumDirections; d++ {
			b := lineBlock{length: length, dir: d, step: steps[d], rows: span, width: span}
			switch d {
			case Down:
				b.width = BoardSide
			case Right:
				b.rows = BoardSide
			case DownLeft:
				b.col0 = length - 1
			}
			blocks = append(blocks, b)
		}
	}
	base := 0
	for i := range blocks {
		b := &blocks[i]
		b.base = base
		base += b.rows * b.width
		b.planPacking()
	}
	return blocks
}()

func (b *lineBlock) planPacking() {
	row := uint32(1)<<b.width - 1
	var at [BoardSide]int // where each row's bits are before the next step
	for r := 0; r < b.rows; r++ {
		b.first |= row << (r*BoardSide + b.col0)
		at[r] = r * BoardSide
	}
	for k := range b.pack {
		shift := (1 << k) * (BoardSide - b.width)
		for r := 0; r < b.rows; r++ {
			if r&(1<<k) != 0 {
				b.pack[k].rows |= row << at[r]
				at[r] -= shift
			}
		}
		b.pack[k].shift = shift
	}
}

// addLines adds to m the lines of b whose cells are all in cells.
func (b *lineBlock) addLines(m *ActionSet, cells uint32) {
	starts := cells
	for k := 1; k < b.length; k++ {
		starts &= cells >> (k * b.step)
	}
	starts = (starts & b.first) >> b.col0
	for _, p := range b.pack {
		starts = starts&^p.rows | (starts&p.rows)>>p.shift
	}
	m.addBits(b.base, uint64(starts))
}
