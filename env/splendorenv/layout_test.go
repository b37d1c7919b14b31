package splendorenv

import (
	"testing"

	"github.com/splendor-rl/splendor/env"
	"github.com/splendor-rl/splendor/env/envtest"
	"github.com/splendor-rl/splendor/env/splendor"
	"github.com/stretchr/testify/require"
)

// The spec's layout, read by name only, says what the engine's state holds:
// along two random 3-player games with features, every seat's view of the
// bank, market, nobles, seats and hands, and the points each seat lacks.
func TestLayoutNamesWhatTheEngineHolds(t *testing.T) {
	envtest.EveryView(t, Game, env.Options{"players": 3, "features": "derived"}, 2,
		func(spec *env.Spec, obs []uint8, g *game, me int) { checkLayout(t, spec, obs, &g.State, me) })
}

func checkLayout(t *testing.T, spec *env.Spec, obs []uint8, s *splendor.State, me int) {
	value := func(block, field string, index ...int) uint8 {
		return envtest.Value(t, spec, obs, block, field, index...)
	}
	require.Equal(t, s.NumPlayers, value("turn", "players"))
	require.Equal(t, uint8(me), value("turn", "my_seat"))
	for g := range splendor.NumTokenKinds {
		require.Equal(t, s.Bank[g], value("bank", splendor.Gem(g).String()))
	}
	for l := range splendor.NumLevels {
		for slot, c := range s.Market[l] {
			envtest.RequireRow(t, spec, obs, "market", cardRow(c), l, slot)
		}
	}
	for slot, nb := range s.Nobles {
		require.Equal(t, nb != splendor.NoNoble, value("nobles", "present", slot) == 1)
		if nb != splendor.NoNoble {
			require.Equal(t, nb.Needs()[splendor.Green], value("nobles", "needs_green", slot))
		}
	}
	n := int(s.NumPlayers)
	for k := range n {
		p := &s.Players[(me+k)%n]
		require.Equal(t, p.Tokens[splendor.Gold], value("seats", "tokens_gold", k))
		require.Equal(t, p.Bonus[splendor.Red], value("seats", "bonus_red", k))
		require.Equal(t, p.Points, value("seats", "points", k))
		require.Equal(t, p.NumReserved, value("seats", "reserved", k))
		require.Equal(t, uint8(max(15-int(p.Points), 0)), value("points_short", "points", k))
		for h := range int(p.NumReserved) {
			require.Equal(t, p.Reserved[h].Info().Level+1, value("hands", "level", k, h))
			if k == 0 || p.Blind&(1<<h) == 0 {
				envtest.RequireRow(t, spec, obs, "hands", cardRow(p.Reserved[h]), k, h)
			}
		}
	}
	require.Zero(t, value("seats", "present", splendor.MaxPlayers-1), "no fourth seat")
}

// cardRow is what a card's row shows (nil: no card).
func cardRow(c splendor.Card) map[string]uint8 {
	if c == splendor.NoCard {
		return nil
	}
	info := c.Info()
	row := map[string]uint8{"present": 1, "points": info.Points, "bonus_" + info.Bonus.String(): 1}
	for g := range splendor.NumColours {
		row["cost_"+splendor.Gem(g).String()] = info.Cost[g]
	}
	return row
}
