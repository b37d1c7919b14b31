// Package bitset holds the word arithmetic behind the engines' fixed-size
// sets (action masks, card sets): bit i of a set is bit i&63 of word i>>6.
// Each engine keeps its own array type, sized for its action space or its
// cards, and its methods pass the array as a slice; Add, Has and Len are
// small enough to be inlined there, so the hot path pays no call (Nth, once
// per decision, is one call).
package bitset

import (
	"encoding/binary"
	"math/bits"
)

// MaxActions bounds every game's action table (Splendor Duel's 281).
const MaxActions = 320

// Actions is a set of action indices wide enough for every game's action
// table: the form in which the engines hand their legal actions to the
// generic env and bots.
type Actions [MaxActions / 64]uint64

// Add puts i in the set.
func Add(words []uint64, i int) { words[i>>6] |= 1 << (i & 63) }

// Has reports whether i is in the set.
func Has(words []uint64, i int) bool { return words[i>>6]&(1<<(i&63)) != 0 }

// Len is the number of members.
func Len(words []uint64) int {
	n := 0
	for _, w := range words {
		n += bits.OnesCount64(w)
	}
	return n
}

// Nth returns the k-th smallest member (k from 0), or -1 when there are k
// or fewer.
func Nth(words []uint64, k int) int {
	for w, word := range words {
		if n := bits.OnesCount64(word); k >= n {
			k -= n
			continue
		}
		if k > 0 {
			return w<<6 + selectBit(word, k)
		}
		return w<<6 + bits.TrailingZeros64(word)
	}
	return -1
}

// Byte-wise constants of selectBit: 1 and the top bit in every byte.
const (
	byteOnes = 0x0101010101010101
	byteTops = 0x8080808080808080
)

// inByte[r][b] is the position of the r-th smallest set bit of byte b.
var inByte [8][256]uint8

func init() {
	for b := range 256 {
		x := uint8(b)
		for r := range bits.OnesCount8(x) {
			inByte[r][b] = uint8(bits.TrailingZeros8(x))
			x &= x - 1
		}
	}
}

// selectBit is the position of the k-th smallest set bit of x, for
// 0 ≤ k < OnesCount64(x). Random play picks a uniform k, and clearing k
// bits one at a time cost a branch miss and half the set's size in steps
// per pick; instead it counts the members of all eight bytes at once, skips
// the bytes wholly below the bit and looks the bit up in its byte.
func selectBit(x uint64, k int) int {
	c := x - x>>1&0x5555555555555555                   // members per 2 bits
	c = c&0x3333333333333333 + c>>2&0x3333333333333333 // per 4 bits
	c = (c + c>>4) & 0x0f0f0f0f0f0f0f0f                // per byte
	upTo := c * byteOnes                               // byte i: members in bytes 0..i, at most 64
	// A byte's top bit survives (k | top) - upTo exactly when upTo ≤ k: the
	// byte is skipped, and so is every byte before it.
	skip := 8 * bits.OnesCount64(((uint64(k)*byteOnes|byteTops)-upTo)&byteTops)
	k -= int(upTo << 8 >> skip & 0xff) // members in the skipped bytes, leaving k < 8
	return skip + int(inByte[k&7][uint8(x>>skip)])
}

// spread[b] has byte i equal to bit i of b: one byte of a set as eight 0/1
// bytes.
var spread = func() (t [256]uint64) {
	for b := range t {
		for i := 0; i < 8; i++ {
			t[b] |= uint64(b>>i&1) << (8 * i)
		}
	}
	return t
}()

// WriteBytes writes 1 into dst[i] for each member i below len(dst) and 0
// for the others: a mask for the wire, eight bytes at a time, a whole word
// at a time so that the loop has no bounds checks.
func WriteBytes(dst []uint8, words []uint64) {
	for _, word := range words {
		if len(dst) < 64 { // the last word: eight bytes at a time still, then the last few one by one
			for ; len(dst) >= 8; dst, word = dst[8:], word>>8 {
				binary.LittleEndian.PutUint64(dst, spread[uint8(word)])
			}
			for i := range dst {
				dst[i] = uint8(word >> i & 1)
			}
			return
		}
		d := (*[64]uint8)(dst)
		for i := 0; i <= 56; i += 8 {
			binary.LittleEndian.PutUint64(d[i:i+8], spread[uint8(word>>i)])
		}
		dst = dst[64:]
	}
}

// AppendBytes appends the 0/1 bytes of mask to dst as bits, WriteBytes'
// inverse: byte ⌊i/8⌋ holds mask[i] in bit i mod 8 (numpy's packbits with
// bitorder "little"), eight bytes at a time.
func AppendBytes(dst, mask []uint8) []uint8 {
	for ; len(mask) >= 8; mask = mask[8:] {
		dst = append(dst, uint8(GatherLowBits(binary.LittleEndian.Uint64(mask))))
	}
	if len(mask) > 0 {
		var last uint8
		for i, m := range mask {
			last |= m << i
		}
		dst = append(dst, last)
	}
	return dst
}

// GatherLowBits packs bit 0 of each byte of x (the only bits set) into bits
// 0–7 of the result, byte i to bit i: the multiply moves byte i's bit to bit
// 56+i, and no two products meet.
func GatherLowBits(x uint64) uint32 {
	return uint32((x * 0x0102040810204080) >> 56)
}

// Of is a set of ids below 128 of type T, such as an engine's cards: the
// engines name it (CardSet) and share its methods.
type Of[T ~uint8] [2]uint64

// Add puts x in the set.
func (s *Of[T]) Add(x T) { Add(s[:], int(x)) }

// Has reports whether x is in the set.
func (s *Of[T]) Has(x T) bool { return Has(s[:], int(x)) }

// Len is the number of members.
func (s *Of[T]) Len() int { return Len(s[:]) }

// Small is a set of ids below 16 of type T, such as a game's noble tiles
// or royal cards, bit x for id x. It is one plain word, so that the engines
// may also combine sets with | and &.
type Small[T ~uint8] uint16

// Has reports whether x is in the set.
func (s Small[T]) Has(x T) bool { return s&(1<<x) != 0 }

// Len is the number of members.
func (s Small[T]) Len() int { return bits.OnesCount16(uint16(s)) }

// AddBits adds i+j for every member j of set, which is below 2^32: a
// block of indices at once, such as the kinds a seat may return.
func AddBits(words []uint64, i int, set uint64) {
	w, off := i>>6, i&63
	words[w] |= set << off
	if off > 32 && w+1 < len(words) {
		words[w+1] |= set >> (64 - off)
	}
}

// Nonzero is the set of the indices of counts that are not zero, bit i for
// counts[i] (at most 32 counts): the kinds a seat holds, the decks with
// cards left.
func Nonzero(counts []uint8) uint32 {
	var set uint32
	for i, n := range counts {
		if n > 0 {
			set |= 1 << i
		}
	}
	return set
}

// Only returns the single member of a non-empty set, and whether it is the
// only one: a choice with a single option needs no decision.
func Only(set uint32) (int, bool) {
	return bits.TrailingZeros32(set), set&(set-1) == 0
}
