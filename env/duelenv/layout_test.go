package duelenv

import (
	"testing"

	"github.com/splendor-rl/splendor/env"
	"github.com/splendor-rl/splendor/env/duel"
	"github.com/splendor-rl/splendor/env/envtest"
	"github.com/splendor-rl/splendor/env/turnbased"
	"github.com/stretchr/testify/require"
)

// The spec's layout, read by name only, says what the engine's state holds:
// along random games with features, both seats' views of the bag, board,
// pyramid, seats and hands, and the points each seat lacks.
func TestLayoutNamesWhatTheEngineHolds(t *testing.T) {
	envtest.EveryView(t, Game, env.Options{"features": "derived"}, 3,
		func(spec *env.Spec, obs []uint8, g *game, me int) { checkLayout(t, spec, obs, &g.State, me) })
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
		envtest.RequireRow(t, spec, obs, "pyramid", cardRow(c), slot)
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
				envtest.RequireRow(t, spec, obs, "hands", cardRow(p.Reserved[h]), k, h)
			}
		}
	}
}

// cardRow is what a card's row shows (nil: no card).
func cardRow(c duel.Card) map[string]uint8 {
	if c == duel.NoCard {
		return nil
	}
	info := c.Info()
	row := map[string]uint8{"present": 1, "points": info.Points, "crowns": info.Crowns, "bonuses": info.Bonuses,
		"joker": turnbased.Flag(info.Joker)}
	if !info.Joker && info.Colour != duel.NoGem {
		row["colour_"+info.Colour.String()] = 1
	}
	for g := range duel.NumCostKinds {
		row["cost_"+duel.Gem(g).String()] = info.Cost[g]
	}
	return row
}
