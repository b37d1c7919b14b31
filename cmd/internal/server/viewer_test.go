package server

import (
	"encoding/binary"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/splendor-rl/splendor/encoding/wire"
	_ "github.com/splendor-rl/splendor/env/duelenv" // registers splendor-duel-v1
	"github.com/stretchr/testify/require"
)

// viewsReply is a view reply as a client without the env's Go types reads it.
type viewsReply struct {
	Views  []map[string]any `msgpack:"views"`
	Boards []string         `msgpack:"boards"`
}

// The view op answers one view and one board per env listed: the referee's
// view (no seat) has the decks and the notation, a seat's has neither; vs-bots
// views name the client's seat. Bad seats and env ids change nothing.
func TestViewOverTheWire(t *testing.T) {
	_, url := start(t, testConfig())
	c := dial(t, url)
	made, _ := makeBatch(t, c, 3, nil)
	var referee, seat viewsReply
	require.NoError(t, c.Call(wire.Request{Op: wire.OpView, Handle: made.Handle}, &referee))
	require.Len(t, referee.Views, 3)
	require.Len(t, referee.Boards, 3)
	v := referee.Views[0]
	require.Contains(t, v, "decks")
	require.Contains(t, v["notation"], "players=2 seat=0 phase=main")
	require.Equal(t, false, v["over"])
	require.NotContains(t, v, "client_seat", "self-play has no client seat")
	require.Len(t, v["deck_sizes"], 3)
	require.True(t, strings.HasPrefix(referee.Boards[0], "Splendor: turn 1, seat 0 to act (main)"), referee.Boards[0])

	one := 1
	require.NoError(t, c.Call(wire.Request{Op: wire.OpView, Handle: made.Handle, EnvIDs: wire.EnvIDs{2}, Seat: &one}, &seat))
	require.Len(t, seat.Views, 1)
	require.NotContains(t, seat.Views[0], "decks")
	require.NotContains(t, seat.Views[0], "notation")
	require.Equal(t, referee.Views[2]["deck_sizes"], seat.Views[0]["deck_sizes"])
	require.Equal(t, referee.Views[2]["market"], seat.Views[0]["market"])

	var states, after wire.StatesReply
	require.NoError(t, c.Call(wire.Request{Op: wire.OpGetState, Handle: made.Handle}, &states))
	for _, bad := range []int{2, -2} {
		requireCode(t, c.Call(wire.Request{Op: wire.OpView, Handle: made.Handle, Seat: &bad}, &seat), wire.CodeBadShape)
	}
	requireCode(t, c.Call(wire.Request{Op: wire.OpView, Handle: made.Handle, EnvIDs: wire.EnvIDs{3}}, &seat), wire.CodeBadShape)
	requireCode(t, c.Call(wire.Request{Op: wire.OpView, Handle: made.Handle, Seeds: wire.Seeds{1}}, &seat), wire.CodeBadRequest)
	require.NoError(t, c.Call(wire.Request{Op: wire.OpGetState, Handle: made.Handle}, &after))
	require.Equal(t, states.States, after.States, "refused views change nothing")

	var duel wire.MakeReply
	require.NoError(t, c.Call(wire.Request{Op: wire.OpMake, Env: "splendor-duel-v1", NumEnvs: 1, Seed: seed(5),
		Options: map[string]any{"mode": "vs_bots", "seat": 1}}, &duel))
	require.NoError(t, c.Call(wire.Request{Op: wire.OpView, Handle: duel.Handle}, &seat), "before the first reset")
	require.Equal(t, true, seat.Views[0]["over"])
	require.NoError(t, c.Call(wire.Request{Op: wire.OpReset, Handle: duel.Handle}, &wire.BatchReply{}))
	require.NoError(t, c.Call(wire.Request{Op: wire.OpView, Handle: duel.Handle, Seat: &one}, &seat))
	require.EqualValues(t, 1, seat.Views[0]["client_seat"])
	require.NotContains(t, seat.Views[0], "chance", "the bag's future is hidden from a seat")
	require.Len(t, seat.Views[0]["board"], 25)
	require.True(t, strings.HasPrefix(seat.Boards[0], "Splendor Duel: turn "), seat.Boards[0])
}

// Components are read-only JSON per env id, from the engines' tables; an
// unknown id is 404.
func TestComponentsAreServedPerEnv(t *testing.T) {
	_, url := start(t, testConfig())
	var splendor struct {
		Cards []struct {
			ID, Level, Points int
			Bonus             string
			Cost              map[string]int
		}
		Nobles []struct{ Needs map[string]int }
	}
	getJSON(t, httpURL(url, "/api/components/splendor-v1"), &splendor)
	require.Len(t, splendor.Cards, 90)
	require.Len(t, splendor.Nobles, 10)
	// Card 0 is the first row of splendor_cards.csv: 1,white,0,3,1,0,0,1.
	first := splendor.Cards[0]
	require.Equal(t, []any{0, 1, 0, "white"}, []any{first.ID, first.Level, first.Points, first.Bonus})
	require.Equal(t, map[string]int{"white": 3, "blue": 1, "green": 0, "red": 0, "black": 1}, first.Cost)

	var duel struct {
		Cards  []struct{ Crowns int }
		Royals []struct{ Ability string }
	}
	getJSON(t, httpURL(url, "/api/components/splendor-duel-v1"), &duel)
	require.Len(t, duel.Cards, 67)
	require.Equal(t, "again", duel.Royals[0].Ability)

	resp, err := http.Get(httpURL(url, "/api/components/chess-v1"))
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, http.StatusNotFound, resp.StatusCode)
	resp, err = http.Post(httpURL(url, "/api/components/splendor-v1"), "text/plain", strings.NewReader("x"))
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, http.StatusMethodNotAllowed, resp.StatusCode)
}

func getJSON(t *testing.T, url string, v any) {
	t.Helper()
	resp, err := http.Get(url)
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	require.Equal(t, "application/json", resp.Header.Get("Content-Type"))
	require.NoError(t, json.NewDecoder(resp.Body).Decode(v))
}

// A reset or step with a seat is answered as that seat may see it: obs and
// mask rows of envs where another seat is to play are zeros, the rest are
// the full reply's; with obs_seats "all" only the seat's own view is kept.
// A seat outside the table is bad_shape and steps nothing.
func TestSeatRepliesLeaveOutOtherSeats(t *testing.T) {
	_, url := start(t, testConfig())
	c := dial(t, url)
	full, _ := makeBatch(t, c, 3, nil)
	seated, _ := makeBatch(t, c, 3, nil)
	var want, got wire.BatchReply
	for turn := range 6 {
		seat := (turn + 1) % 2 // the seat not to play, then the seat to play, …
		if turn == 0 {
			require.NoError(t, c.Call(wire.Request{Op: wire.OpReset, Handle: full.Handle}, &want))
			require.NoError(t, c.Call(wire.Request{Op: wire.OpReset, Handle: seated.Handle, Seat: &seat}, &got))
		} else {
			actions := firstLegal(want.Mask)
			require.NoError(t, c.Call(wire.Request{Op: wire.OpStep, Handle: full.Handle, Actions: &actions}, &want))
			require.NoError(t, c.Call(wire.Request{Op: wire.OpStep, Handle: seated.Handle, Actions: &actions, Seat: &seat}, &got))
		}
		require.Equal(t, want.ToPlay, got.ToPlay)
		require.Equal(t, want.Rewards, got.Rewards)
		toPlay := int32s(want.ToPlay)
		for i, rowSeat := range toPlay {
			for _, tensors := range [][2]wire.Tensor{{want.Obs, got.Obs}, {want.Mask, got.Mask}} {
				w, g := rows(tensors[0], len(toPlay))[i], rows(tensors[1], len(toPlay))[i]
				if int(rowSeat) == seat {
					require.Equal(t, w, g, "turn %d env %d: the seat's own row", turn, i)
				} else {
					require.Equal(t, make([]byte, len(w)), g, "turn %d env %d: another seat's row", turn, i)
				}
			}
		}
	}
	var before, after wire.StatesReply
	require.NoError(t, c.Call(wire.Request{Op: wire.OpGetState, Handle: seated.Handle}, &before))
	for _, bad := range []int{2, -1} {
		requireCode(t, c.Call(wire.Request{Op: wire.OpStep, Handle: seated.Handle, Actions: ptr(firstLegal(want.Mask)), Seat: &bad}, &got), wire.CodeBadShape)
		requireCode(t, c.Call(wire.Request{Op: wire.OpReset, Handle: seated.Handle, Seat: &bad}, &got), wire.CodeBadShape)
	}
	require.NoError(t, c.Call(wire.Request{Op: wire.OpGetState, Handle: seated.Handle}, &after))
	require.Equal(t, before.States, after.States, "refused seats change nothing")

	every, _ := makeBatch(t, c, 2, map[string]any{"obs_seats": "all"})
	one := 1
	var all, mine wire.BatchReply
	require.NoError(t, c.Call(wire.Request{Op: wire.OpReset, Handle: every.Handle, Seeds: wire.Seeds{4, 5}}, &all))
	require.NoError(t, c.Call(wire.Request{Op: wire.OpReset, Handle: every.Handle, Seeds: wire.Seeds{4, 5}, Seat: &one}, &mine))
	for i, row := range rows(mine.Obs, 2) {
		half := len(row) / 2
		require.Equal(t, make([]byte, half), row[:half], "env %d: seat 0's view is left out", i)
		require.Equal(t, rows(all.Obs, 2)[i][half:], row[half:], "env %d: seat 1's own view is kept", i)
	}
}

func int32s(t wire.Tensor) []int32 {
	out := make([]int32, len(t.Data)/4)
	for i := range out {
		out[i] = int32(binary.LittleEndian.Uint32(t.Data[4*i:]))
	}
	return out
}

// rows splits a tensor's data into n rows.
func rows(t wire.Tensor, n int) [][]byte {
	size := len(t.Data) / n
	out := make([][]byte, n)
	for i := range out {
		out[i] = t.Data[i*size : (i+1)*size]
	}
	return out
}
