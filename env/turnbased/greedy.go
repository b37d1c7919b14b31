package turnbased

// Target is the greedy bots' choice of the card to save for, among cards
// (none: the game's NoCard, skipped): the best worth per token still lacking
// beyond the buyer's gold, the first offered among equals. worth is a card's
// worth to the buyer, and the tokens of its price the buyer lacks beyond its
// bonuses and tokens.
func Target[C comparable](none C, gold uint8, worth func(C) (value, lacking int), cards ...[]C) C {
	best, bestValue := none, -1
	for _, list := range cards {
		for _, c := range list {
			if c == none {
				continue
			}
			w, lacking := worth(c)
			if value := w / (1 + max(lacking-int(gold), 0)); value > bestValue {
				best, bestValue = c, value
			}
		}
	}
	return best
}

// Lacking writes into need, kind by kind, what price asks beyond what its
// buyer holds (its tokens, and its bonuses for the kinds bonus covers), and
// returns the total.
func Lacking(need []int, price, tokens, bonus []uint8) (total int) {
	for k := range need {
		have := int(tokens[k])
		if k < len(bonus) {
			have += int(bonus[k])
		}
		need[k] = max(int(price[k])-have, 0)
		total += need[k]
	}
	return total
}
