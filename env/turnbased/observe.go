package turnbased

// WriteHand writes a seat's reserved cards into its observation block hand,
// one after another, each as its features (cardSize values), 1 if hidden,
// and its level counted from 1. A card another seat reserved blind (bit r
// of blind for cards[r]) shows only that it is there and its level.
func WriteHand[C ~uint8](hand []uint8, cards []C, blind uint8, mine bool, cardSize int,
	features func(C) []uint8, level func(C) uint8) {
	for r, c := range cards {
		h := hand[r*(cardSize+2):]
		hidden := blind&(1<<r) != 0 && !mine
		if hidden {
			h[0] = 1
			h[cardSize] = 1
		} else {
			copy(h, features(c))
		}
		h[cardSize+1] = level(c) + 1
	}
}
