package envtest

import (
	"encoding/json"
	"testing"

	"github.com/splendor-rl/splendor/env"
	"github.com/splendor-rl/splendor/env/tableview"
	"github.com/stretchr/testify/require"
)

// viewsHideWhatSeatsCannotSee: a seat's view (env.Viewer) is the same
// after everything that seat cannot see is redealt, has no notation, deck
// order or bag future, and shows another seat's blind reserve as its level
// only; the referee's view changes with the redeal, as it shows everything.
func viewsHideWhatSeatsCannotSee(t *testing.T, c Case) {
	v := makeVector(t, c, 17, nil)
	if _, ok := v.Env(0).(env.Viewer); !ok {
		t.Skip("the env does not show its table")
	}
	refereeChanged, blindSeen := 0, 0
	play(t, v, c.Steps/4, 8, func(step int, _ []int32) {
		for i := 0; i < v.Len(); i++ {
			e := v.Env(i)
			for seat := 0; seat < v.Spec.Players; seat++ {
				clone := e.(env.Cloner).Clone()
				clone.(env.Resampler).ResampleSeat(seat, uint64(step*100+i))
				mine := viewJSON(t, e, seat)
				require.JSONEq(t, mine, viewJSON(t, clone, seat), "seat %d's view depends on what it cannot see", seat)
				if viewJSON(t, e, tableview.Referee) != viewJSON(t, clone, tableview.Referee) {
					refereeChanged++
				}
				blindSeen += checkSeatView(t, mine, viewJSON(t, e, tableview.Referee), seat)
			}
		}
	})
	require.Positive(t, refereeChanged, "the referee's view never showed what a redeal changes")
	require.Positive(t, blindSeen, "no blind reserve was ever seen by its owner and hidden from the others")
}

func viewJSON(t *testing.T, e env.Env, viewer int) string {
	view, _ := e.(env.Viewer).View(viewer, false)
	b, err := json.Marshal(view)
	require.NoError(t, err)
	return string(b)
}

// seatView is the part of a view the check reads.
type seatView struct {
	Notation  *string `json:"notation"`
	Decks     [][]int `json:"decks"`
	Chance    *string `json:"chance"`
	DeckSizes []int   `json:"deck_sizes"`
	Seats     []struct {
		Reserved []tableview.Reserved `json:"reserved"`
	} `json:"seats"`
}

// checkSeatView compares seat's view with the referee's; it counts the
// blind reserves of other seats it found hidden.
func checkSeatView(t *testing.T, mine, all string, seat int) int {
	var m, r seatView
	require.NoError(t, json.Unmarshal([]byte(mine), &m))
	require.NoError(t, json.Unmarshal([]byte(all), &r))
	require.True(t, m.Notation == nil && m.Decks == nil && m.Chance == nil, "a seat's view spells hidden state")
	require.NotNil(t, r.Notation)
	require.Len(t, r.Decks, len(m.DeckSizes))
	for l, deck := range r.Decks {
		require.Len(t, deck, m.DeckSizes[l])
	}
	hidden := 0
	for owner := range r.Seats {
		for k, card := range r.Seats[owner].Reserved {
			got := m.Seats[owner].Reserved[k]
			if !card.Hidden || owner == seat {
				require.Equal(t, card, got, "seat %d sees seat %d's reserve %d", seat, owner, k)
				continue
			}
			require.Nil(t, got.Card, "seat %d sees seat %d's blind reserve", seat, owner)
			require.True(t, got.Hidden)
			require.NotNil(t, got.Level)
			hidden++
		}
	}
	return hidden
}
