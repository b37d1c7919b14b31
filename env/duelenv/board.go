package duelenv

import (
	"fmt"
	"strings"

	"github.com/splendor-rl/splendor/env/duel"
	tv "github.com/splendor-rl/splendor/env/tableview"
)

// costLetters spell a Duel cost: the gem colours, then P for the pearl.
const costLetters = tv.Letters + "P"

// Board is v as a text board for people (render_mode "ansi", splendorctl
// play): the 5×5 board (columns a–e, rows 1–5) and the bag, privileges and
// royals left on the table, the pyramid from level 3 down with its deck
// sizes, then each seat, ">" marking the seat to act. Gems are W U G R K,
// P the pearl, $ gold; a card reads [bonus points crowns ability: cost].
func Board(v *StateView) string {
	var b tv.Board
	fmt.Fprintf(&b, "Splendor Duel: turn %d, seat %d to act (%s), payment %s%s\n", v.Turn+1, v.Seat, v.Phase,
		v.Payment, again(v))
	if v.Pending != nil {
		b.Line("pending", "%s%s", cardText(*v.Pending), due(v))
	}
	b.Line("board", "  a b c d e    bag %s P%d gold %d", v.Bag.Gems, v.Bag.Pearl, v.Bag.Gold)
	for row := 0; row < duel.BoardSide; row++ {
		cells := make([]string, duel.BoardSide)
		for col := range cells {
			cells[col] = cellText(v.Board[row*duel.BoardSide+col])
		}
		b.Line("", "%d %s", row+1, strings.Join(cells, " "))
	}
	table := duel.NumPrivileges
	for _, s := range v.Seats {
		table -= s.Privileges
	}
	b.Line("table", "%d privileges, royals %s", table, royalsLeft(v))
	for l := duel.NumLevels - 1; l >= 0; l-- {
		b.Line(fmt.Sprintf("L%d (%d)", l+1, v.DeckSizes[l]), "%s",
			tv.Row(v.Pyramid[duel.PyramidStart[l]:duel.PyramidStart[l+1]], cardText))
	}
	for i, s := range v.Seats {
		b.Line(fmt.Sprintf("%s seat %d", tv.Marker(i, v.Seat), i), "%d points (by colour %s), %d crowns, %d privileges",
			s.Points, s.ColourPoints, s.Crowns, s.Privileges)
		b.Line("", "tokens %s P%d gold %d  bonuses %s  royals %d", s.Tokens.Gems, s.Tokens.Pearl, s.Tokens.Gold,
			s.Bonuses, len(s.Royals))
		b.Line("", "reserved %s", tv.HandText(s.Reserved, cardText))
	}
	return b.String()
}

func again(v *StateView) string {
	if v.Again {
		return ", plays again"
	}
	return ""
}

func due(v *StateView) string {
	if v.Due == nil {
		return ""
	}
	d := v.Due.Counts()
	return ", still due " + tv.Cost([]uint8{uint8(d[0]), uint8(d[1]), uint8(d[2]), uint8(d[3]), uint8(d[4]),
		uint8(v.Due.Pearl)}, costLetters)
}

// cellText spells a board cell: a gem letter, P, $ or "." when empty.
func cellText(kind *string) string {
	if kind == nil {
		return "."
	}
	switch *kind {
	case duel.Pearl.String():
		return "P"
	case duel.Gold.String():
		return "$"
	}
	for g := duel.White; g <= duel.Black; g++ {
		if *kind == g.String() {
			return tv.Letters[g : g+1]
		}
	}
	return "?"
}

// royalsLeft spells the royals no seat has taken.
func royalsLeft(v *StateView) string {
	var left []string
	for r := duel.Royal(0); r < duel.NumRoyals; r++ {
		taken := false
		for _, s := range v.Seats {
			for _, id := range s.Royals {
				taken = taken || id == int(r)
			}
		}
		if !taken {
			left = append(left, royalText(r.Info()))
		}
	}
	if left == nil {
		return "none"
	}
	return strings.Join(left, " ")
}

func royalText(r duel.RoyalInfo) string {
	if r.Ability == duel.AbilityNone {
		return fmt.Sprintf("[%dp]", r.Points)
	}
	return fmt.Sprintf("[%dp %s]", r.Points, r.Ability)
}

// cardText spells a jewel card: [KK 2p 1c again: W3 P1] gives two black
// bonuses, 2 points, a crown and another turn, for 3 white and a pearl; a
// joker's bonus is ?, a card without bonus shows -.
func cardText(id int) string {
	c := duel.Card(id).Info()
	bonus := "-"
	switch {
	case c.Joker:
		bonus = "?"
	case c.Colour != duel.NoGem:
		bonus = strings.Repeat(tv.Letters[c.Colour:c.Colour+1], int(c.Bonuses))
	}
	extra := ""
	if c.Crowns > 0 {
		extra += fmt.Sprintf(" %dc", c.Crowns)
	}
	if c.Ability != duel.AbilityNone {
		extra += " " + c.Ability.String()
	}
	return fmt.Sprintf("[%s %dp%s: %s]", bonus, c.Points, extra, tv.Cost(c.Cost[:], costLetters))
}
