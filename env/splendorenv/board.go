package splendorenv

import (
	"fmt"
	"strings"

	"github.com/splendor-rl/splendor/env/splendor"
	tv "github.com/splendor-rl/splendor/env/tableview"
)

// Board is v as a text board for people (render_mode "ansi", splendorctl
// play): bank, nobles, market rows from level 3 down with their deck sizes,
// then each seat, ">" marking the seat to act. Gems are W U G R K; a card
// reads [bonus points: cost].
func Board(v *StateView) string {
	var b tv.Board
	fmt.Fprintf(&b, "Splendor: turn %d, seat %d to act (%s), payment %s%s\n", v.Turn+1, v.Seat, v.Phase, v.Payment,
		finalRound(v))
	if v.Buying != nil {
		b.Line("paying", "for %s, still due %s", cardText(*v.Buying), v.Due)
	}
	b.Line("bank", "%s gold %d", v.Bank.Gems, v.Bank.Gold)
	var nobles []string
	for _, n := range v.Nobles {
		if n != nil {
			needs := splendor.Noble(*n).Needs()
			nobles = append(nobles, fmt.Sprintf("[%dp: %s]", splendor.NoblePoints, tv.Cost(needs[:], tv.Letters)))
		}
	}
	b.Line("nobles", "%s", strings.Join(nobles, " "))
	for l := len(v.Market) - 1; l >= 0; l-- {
		b.Line(fmt.Sprintf("L%d (%d)", l+1, v.DeckSizes[l]), "%s", tv.Row(v.Market[l], cardText))
	}
	for i, s := range v.Seats {
		b.Line(fmt.Sprintf("%s seat %d", tv.Marker(i, v.Seat), i), "%d points  tokens %s gold %d  bonuses %s  nobles %d",
			s.Points, s.Tokens.Gems, s.Tokens.Gold, s.Bonuses, len(s.Nobles))
		b.Line("", "reserved %s", tv.HandText(s.Reserved, cardText))
	}
	return b.String()
}

func finalRound(v *StateView) string {
	if v.FinalRound && v.Phase != splendor.PhaseOver.String() {
		return ", final round"
	}
	return ""
}

// cardText spells a development card: [K 4p: W7] is a black bonus worth 4
// points that costs 7 white.
func cardText(id int) string {
	c := splendor.Card(id).Info()
	return fmt.Sprintf("[%c %dp: %s]", tv.Letters[c.Bonus], c.Points, tv.Cost(c.Cost[:], tv.Letters))
}
