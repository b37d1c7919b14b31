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
	step                      int // cell distance between neighbours on the line
	base                      int // action index of the first line
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
		blocks[i].base = base
		base += blocks[i].rows * blocks[i].width
	}
	return blocks
}()

// lineWords is the number of ActionSet words the line indices reach.
const lineWords = (numLines + 63) / 64

// rowBits masks one row of a cell set.
const rowBits = 1<<BoardSide - 1

// linesByRow[r][v] is the set of lines (the first ActionSet words) that row
// r leaves takeable when its takeable cells are v (bit col): those whose
// cells in row r are all in v, and those that do not cross row r. A line is
// takeable when every row leaves it so, which makes the 145 lines five
// lookups ANDed together instead of a test per line.
var linesByRow [BoardSide][1 << BoardSide][lineWords]uint64

// initLinesByRow fills linesByRow from lineCells.
func initLinesByRow() {
	var lineSet [numLines]uint32
	for i := range lineSet {
		for _, c := range lineCells[i][:actionTable[i].Len] {
			lineSet[i] |= 1 << c
		}
	}
	for r := range linesByRow {
		row := uint32(rowBits) << (r * BoardSide)
		for v := range linesByRow[r] {
			cells := uint32(v) << (r * BoardSide)
			for i, set := range lineSet {
				if set&row&^cells == 0 {
					linesByRow[r][v][i>>6] |= 1 << (i & 63)
				}
			}
		}
	}
}

// addLines adds to m the lines whose cells are all in cells. The three
// words are kept in registers, one variable each.
func (m *ActionSet) addLines(cells uint32) {
	lo, mid, hi := ^uint64(0), ^uint64(0), ^uint64(0)
	for r := range linesByRow {
		row := &linesByRow[r][cells>>(r*BoardSide)&rowBits]
		lo, mid, hi = lo&row[0], mid&row[1], hi&row[2]
	}
	m[0], m[1], m[2] = m[0]|lo, m[1]|mid, m[2]|hi
}
