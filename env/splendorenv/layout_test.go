package splendorenv

import (
	"testing"

	"github.com/splendor-rl/splendor/env"
	"github.com/splendor-rl/splendor/env/envtest"
	"github.com/splendor-rl/splendor/env/splendor"
	"github.com/splendor-rl/splendor/internal/rng"
	"github.com/stretchr/testify/require"
)

// The spec's layout, read by name only, says what the engine's state holds:
// along random 3-player games with features, every seat's view of the
// bank, market, nobles, seats and hands, and the points each seat lacks.
func TestLayoutNamesWhatTheEngineHolds(t *testing.T) {
	opts := env.Options{"players": 3, "features": "derived"}
	v, err := env.Make(ID, 1, opts, 0, nil)
	require.NoError(t, err)
	spec := &v.Spec
	e := makeEnv(t, opts)
	e.Reset(5)
	r := rng.New(5)
	obs, mask := make([]uint8, spec.ObsSize()), make([]uint8, spec.NumActions)
	for step := 0; step < 400 && !e.Done(); step++ {
		s := e.State().State
		for me := range 3 {
			e.ObserveSeat(me, obs)
			checkLayout(t, spec, obs, &s, me)
		}
		e.Mask(mask)
		require.NoError(t, e.Step(int(env.SampleLegal(mask, &r))))
	}
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
			checkCard(t, value, c, "market", l, slot)
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
				checkCard(t, value, p.Reserved[h], "hands", k, h)
			}
		}
	}
	require.Zero(t, value("seats", "present", splendor.MaxPlayers-1), "no fourth seat")
}

// checkCard: the row at index of block shows card c (or none).
func checkCard(t *testing.T, value func(string, string, ...int) uint8, c splendor.Card, block string, index ...int) {
	require.Equal(t, c != splendor.NoCard, value(block, "present", index...) == 1)
	if c == splendor.NoCard {
		return
	}
	info := c.Info()
	require.Equal(t, info.Points, value(block, "points", index...))
	require.Equal(t, uint8(1), value(block, "bonus_"+info.Bonus.String(), index...))
	for g := range splendor.NumColours {
		require.Equal(t, info.Cost[g], value(block, "cost_"+splendor.Gem(g).String(), index...))
	}
}
