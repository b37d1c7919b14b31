package server

import (
	"math/rand/v2"
	"testing"

	"github.com/splendor-rl/splendor/encoding/wire"
	"github.com/stretchr/testify/require"
)

// randomLegal picks, for every env, a legal action of its mask at random.
func randomLegal(mask wire.Tensor, r *rand.Rand) wire.Tensor {
	n, na := mask.Shape[0], mask.Shape[1]
	actions := make([]int32, n)
	for i := range actions {
		var legal []int32
		for a := range na {
			if mask.Data[i*na+a] == 1 {
				legal = append(legal, int32(a))
			}
		}
		actions[i] = legal[r.IntN(len(legal))]
	}
	return wire.Int32Tensor(actions, n)
}

// An episode's final observation is its last actor's: a seat gets it only
// if it is that seat, whoever plays first in the next episode.
func TestSeatRepliesKeepOnlyTheSeatsOwnFinalObservation(t *testing.T) {
	_, url := start(t, testConfig())
	c := dial(t, url)
	opts := map[string]any{"autoreset": "same_step"}
	full, first := makeBatch(t, c, 8, opts)
	seated := [2]wire.MakeReply{}
	for seat := range seated {
		seated[seat], _ = makeBatch(t, c, 8, opts)
	}
	r := rand.New(rand.NewPCG(1, 2))
	last, ended, others := first, 0, 0
	for ended < 40 {
		actions := randomLegal(last.Mask, r)
		var next wire.BatchReply
		require.NoError(t, c.Call(wire.Request{Op: wire.OpStep, Handle: full.Handle, Actions: &actions}, &next))
		actors := int32s(last.ToPlay)
		for seat, b := range seated {
			var got wire.BatchReply
			require.NoError(t, c.Call(wire.Request{Op: wire.OpStep, Handle: b.Handle, Actions: &actions, Seat: &seat}, &got))
			for i, e := range rows(*next.Ended, 8) {
				want, row := rows(*next.FinalObs, 8)[i], rows(*got.FinalObs, 8)[i]
				if e[0] == 1 && int(actors[i]) == seat {
					require.Equal(t, want, row, "env %d: the seat that ended the episode keeps its final observation", i)
				} else {
					require.Equal(t, make([]byte, len(row)), row, "env %d: seat %d gets no other seat's final observation", i, seat)
				}
			}
		}
		for i, e := range rows(*next.Ended, 8) {
			if e[0] == 1 {
				ended++
				if int32s(next.ToPlay)[i] != actors[i] {
					others++ // the new episode's first seat is not the last actor: the case that leaked
				}
			}
		}
		last = next
	}
	require.Positive(t, others, "some episode must end with another seat to play first in the next")
}

// With obs_seats "all", a determinize reply shows every seat's view of the
// redealt game: what a fresh load of that state shows.
func TestDeterminizeShowsEverySeatsViewOfTheRedeal(t *testing.T) {
	_, url := start(t, testConfig())
	c := dial(t, url)
	opts := map[string]any{"obs_seats": "all"}
	a, first := makeBatch(t, c, 16, opts)
	b, _ := makeBatch(t, c, 16, opts)
	r := rand.New(rand.NewPCG(3, 4))
	last := first
	for range 40 { // far enough for blind reserves, hidden from the seats not holding them
		actions := randomLegal(last.Mask, r)
		require.NoError(t, c.Call(wire.Request{Op: wire.OpStep, Handle: a.Handle, Actions: &actions}, &last))
	}
	seeds := make(wire.Seeds, 16)
	for i := range seeds {
		seeds[i] = wire.Seed(100 + i)
	}
	var redealt wire.BatchReply
	require.NoError(t, c.Call(wire.Request{Op: wire.OpDeterminize, Handle: a.Handle, Seeds: seeds}, &redealt))
	var states wire.StatesReply
	require.NoError(t, c.Call(wire.Request{Op: wire.OpGetState, Handle: a.Handle}, &states))
	var loaded wire.BatchReply
	require.NoError(t, c.Call(wire.Request{Op: wire.OpSetState, Handle: b.Handle, States: states.States}, &loaded))
	require.Equal(t, loaded.Obs.Data, redealt.Obs.Data)
	require.Equal(t, loaded.Mask.Data, redealt.Mask.Data)
	require.NotEqual(t, last.Obs.Data, redealt.Obs.Data, "some seat's view must change with the redeal")
}
