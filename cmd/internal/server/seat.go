package server

import (
	"github.com/splendor-rl/splendor/encoding/wire"
)

// A reset or step with `seat` is answered as that seat may see it
// (PROTOCOL.md §5): a client that steps every seat itself, as the viewer
// does for its bots, must not receive the bots' observations and masks,
// which hold what only they know (their blind reserves).

// checkSeat refuses a seat outside [0, players) before anything changes.
func (b *batch) checkSeat(seat *int) *wire.Error {
	if seat != nil && (*seat < 0 || *seat >= b.v.Spec.Players) {
		return wire.Errorf(wire.CodeBadShape, "seat must be in [0, %d), got %d", b.v.Spec.Players, *seat)
	}
	return nil
}

// replyFor is the batch reply, or for a seat a copy of it keeping of obs
// and mask only the rows of envs where that seat is to play, and of
// final_obs those where the ended episode's last observation is that
// seat's (not the new episode's seat to play: it may be another); with
// obs_seats "all" every row keeps that seat's own view, and only it.
func (b *batch) replyFor(id uint64, seat *int) *wire.BatchReply {
	full := b.replyTo(id)
	if seat == nil {
		return full
	}
	r := *full
	mine := func(i int) bool { return int(b.v.ToPlay[i]) == *seat }
	obs, final := mine, func(i int) bool { return int(b.v.FinalSeat[i]) == *seat }
	part, k := 1, 0 // an obs row's parts (one per seat with obs_seats "all") and the one kept
	if len(b.v.Spec.ObsShape) > 1 {
		part, k = b.v.Spec.Players, *seat
		obs, final = func(int) bool { return true }, func(int) bool { return true }
	}
	r.Obs = keepRows(full.Obs, b.v.Len(), part, k, obs)
	r.Mask = keepRows(full.Mask, b.v.Len(), 1, 0, mine)
	if full.FinalObs != nil {
		finalObs := keepRows(*full.FinalObs, b.v.Len(), part, k, final)
		r.FinalObs = &finalObs
	}
	return &r
}

// keepRows copies t's data, zeros but for the kept rows of its n rows; of
// a kept row, split into parts, only part k.
func keepRows(t wire.Tensor, n, parts, k int, keep func(i int) bool) wire.Tensor {
	data := make([]byte, len(t.Data))
	row := len(t.Data) / max(n, 1)
	size := row / parts
	for i := range n {
		if keep(i) {
			at := i*row + k*size
			copy(data[at:at+size], t.Data[at:at+size])
		}
	}
	t.Data = data
	return t
}
