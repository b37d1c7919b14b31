package turnbased

// Building blocks of the games' observation encoders: plain functions the
// encoders call directly, so that the step path makes no indirect call per
// value (a helper through func values cost 7 %).

// Flag is a yes/no as an observation value.
func Flag(b bool) uint8 {
	if b {
		return 1
	}
	return 0
}

// WriteReserve writes one reserved card's block into h: the card's own
// block (card; its first value says that a card is there), then hidden,
// then its level (1–3). A card another seat reserved blind from a deck is
// hidden: only that it is there and its level show.
func WriteReserve(h, card []uint8, level uint8, hidden bool) {
	n := len(card)
	if hidden {
		h[0] = 1
	} else {
		copy(h[:n], card)
	}
	h[n] = Flag(hidden)
	h[n+1] = level
}
