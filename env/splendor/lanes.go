package splendor

// The rules compare five gem colours at a time: whether a seat can afford a
// card and what it pays, whether its bonuses meet a noble, which bank piles
// hold tokens. Legal runs these for every card on the table at every
// decision, so they work on colour "lanes": the counts of a colour array
// packed into one word, colour g in the 12 bits from bit 12g, so that one
// subtraction compares all five colours, without a branch per colour.
//
// The counts are uint8, so a lane holds a count (at most 255) or the sum of
// two (at most 510) in its low 11 bits, and bit 11 of the lane, its guard,
// catches the borrow of a lane's subtraction before it reaches the next lane.
// The results are exact for every value the fields can hold (the tests hold
// them to the rules written colour by colour, up to 255 of everything).
const (
	laneBits  = 12
	laneGuard = 1 << (laneBits - 1) // the guard bit of lane 0
	// guards has every lane's guard bit set; ones has 1 in every lane.
	guards = laneGuard | laneGuard<<12 | laneGuard<<24 | laneGuard<<36 | laneGuard<<48
	ones   = 1 | 1<<12 | 1<<24 | 1<<36 | 1<<48
)

// costLanes and needLanes are the printed costs of the cards and the bonuses
// the nobles need, as lanes.
var (
	costLanes [NumCards]uint64
	needLanes [NumNobleTiles]uint64
)

func init() {
	for c := range cards {
		costLanes[c] = lanes(&cards[c].Cost)
	}
	for n := range nobleNeeds {
		needLanes[n] = lanes(&nobleNeeds[n])
	}
}

// lanes packs a colour array, colour g in lane g.
func lanes(a *[NumColours]uint8) uint64 {
	return uint64(a[0]) | uint64(a[1])<<12 | uint64(a[2])<<24 | uint64(a[3])<<36 | uint64(a[4])<<48
}

// gemLanes packs the gem counts of t, gold left out.
func (t *Tokens) gemLanes() uint64 { return lanes((*[NumColours]uint8)(t[:NumColours])) }

// atLeast is the set of colours whose lane in x is at least n (n ≤ 255):
// adding guard-n carries into a lane's guard bit exactly when the lane holds
// n or more, and never out of the lane.
func atLeast(x uint64, n uint8) GemSet {
	return gatherGuards((x + (laneGuard-uint64(n))*ones) & guards)
}

// gatherGuards turns the guard bits of g (nothing else set) into a GemSet.
// Shifted down, lane k's guard is bit 12k; the multiplier copies it to bit
// 48+k (a shift by 48-11k). No two lanes' copies land on the same bit, so
// nothing carries into the five bits read.
func gatherGuards(g uint64) GemSet {
	const gather = 1<<48 | 1<<37 | 1<<26 | 1<<15 | 1<<4
	return GemSet((g >> (laneBits - 1)) * gather >> 48 & (1<<NumColours - 1))
}

// excess is, lane by lane, a less b where a is the larger, else 0. Setting
// the guards before subtracting keeps every lane's borrow inside it; a lane
// whose guard survived had a ≥ b and holds the difference below its guard,
// and keep masks those differences.
func excess(a, b uint64) uint64 {
	d := (a | guards) - b
	kept := d & guards
	keep := kept - kept>>(laneBits-1)
	return d & keep
}

// total adds up the lanes of x: the multiplier sums lanes 0 to 4 into lane 4
// (at most 5×510, which fits in its 12 bits, as do the partial sums below it).
func total(x uint64) uint64 { return x * ones >> 48 & (1<<laneBits - 1) }

// shortfall is what gold has to make up to pay cost with power: the sum over
// the colours of cost less power where cost is the larger.
func shortfall(cost, power uint64) uint64 { return total(excess(cost, power)) }

// unpack writes the lanes of x, each at most 255, into a.
func unpack(x uint64, a *[NumColours]uint8) {
	for g := range a {
		a[g] = uint8(x >> (laneBits * g))
	}
}

// covers reports whether every lane of have is at least its lane in need.
func covers(have, need uint64) bool {
	return ((have|guards)-need)&guards == guards
}
