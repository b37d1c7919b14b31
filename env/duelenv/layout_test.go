package duelenv

import (
	"testing"

	"github.com/splendor-rl/splendor/env"
	"github.com/splendor-rl/splendor/env/duel"
	"github.com/splendor-rl/splendor/env/envtest"
	"github.com/splendor-rl/splendor/internal/rng"
	"github.com/stretchr/testify/require"
)

// The spec's layout, read by name only, says what the engine's state holds:
// along random games with features, both seats' views of the bag, board,
// pyramid, seats and hands, and the points each seat lacks.
func TestLayoutNamesWhatTheEngineHolds(t *testing.T) {
	opts := env.Options{"features": "derived"}
	v, err := env.Make(ID, 1, opts, 0, nil)
	require.NoError(t, err)
	spec := &v.Spec
	e := envtest.NewEnv(t, Game, opts)
	r := rng.New(5)
	obs, mask := make([]uint8, spec.ObsSize()), make([]uint8, spec.NumActions)
	for game := range uint64(3) {
		e.Reset(game)
		for !e.Done() {
			s := e.State().State
			for me := range duel.NumPlayers {
				e.ObserveSeat(me, obs)
				checkLayout(t, spec, obs, &s, me)
			}
			e.Mask(mask)
			require.NoError(t, e.Step(int(env.SampleLegal(mask, &r))))
		}
	}
}

func checkLayout(t *testing.T, spec *env.Spec, obs []uint8, s *duel.State, me int) {
	value := func(block, field string, index ...int) uint8 {
		return envtest.Value(t, spec, obs, block, field, index...)
	}
	require.Equal(t, uint8(me), value("turn", "my_seat"))
	require.Equal(t, s.Bag[duel.Pearl], value("bag", "pearl"))
	for c, g := range s.Board {
		if g != duel.NoGem {
			require.Equal(t, uint8(1), value("board", g.String(), c))
		}
	}
	for slot, c := range s.Pyramid {
		checkCard(t, value, c, "pyramid", slot)
	}
	for k := range duel.NumPlayers {
		p := &s.Players[(me+k)%duel.NumPlayers]
		require.Equal(t, p.Tokens[duel.Gold], value("seats", "tokens_gold", k))
		require.Equal(t, p.Privileges, value("seats", "privileges", k))
		require.Equal(t, p.ColourPoints[duel.Black], value("seats", "points_black", k))
		require.Equal(t, p.Crowns, value("seats", "crowns", k))
		require.Equal(t, p.NumReserved, value("seats", "reserved", k))
		require.Equal(t, uint8(max(duel.PointsToWin-int(p.Points), 0)), value("goals", "points", k))
		for h := range int(p.NumReserved) {
			require.Equal(t, p.Reserved[h].Info().Level+1, value("hands", "level", k, h))
			if k == 0 || p.Blind&(1<<h) == 0 {
				checkCard(t, value, p.Reserved[h], "hands", k, h)
			}
		}
	}
}

// checkCard: the row at index of block shows card c (or none).
func checkCard(t *testing.T, value func(string, string, ...int) uint8, c duel.Card, block string, index ...int) {
	require.Equal(t, c != duel.NoCard, value(block, "present", index...) == 1)
	if c == duel.NoCard {
		return
	}
	info := c.Info()
	require.Equal(t, info.Points, value(block, "points", index...))
	require.Equal(t, info.Crowns, value(block, "crowns", index...))
	require.Equal(t, info.Bonuses, value(block, "bonuses", index...))
	require.Equal(t, info.Joker, value(block, "joker", index...) == 1)
	if !info.Joker && info.Colour != duel.NoGem {
		require.Equal(t, uint8(1), value(block, "colour_"+info.Colour.String(), index...))
	}
	for g := range duel.NumCostKinds {
		require.Equal(t, info.Cost[g], value(block, "cost_"+duel.Gem(g).String(), index...))
	}
}
