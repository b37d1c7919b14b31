package duelenv

import (
	"github.com/splendor-rl/splendor/env/bots"
	"github.com/splendor-rl/splendor/env/duel"
	"github.com/splendor-rl/splendor/env/turnbased"
	"github.com/splendor-rl/splendor/internal/bitset"
	"github.com/splendor-rl/splendor/internal/rng"
)

// game is the engine's state as the env and the bots see it
// (turnbased.Rules).
type game duel.State

func (g *game) state() *duel.State { return (*duel.State)(g) }

func (g *game) ToPlay() int         { return int(g.Seat) }
func (g *game) Over() bool          { return g.state().Over() }
func (g *game) Blocked() bool       { return g.state().Blocked() }
func (g *game) Winners() uint8      { return g.state().Winners() }
func (g *game) Seats() int          { return duel.NumPlayers }
func (g *game) Points(seat int) int { return int(g.Players[seat].Points) }
func (g *game) String() string      { return g.state().String() }

func (g *game) Apply(action int) (turnbased.Progress, error) {
	err := g.state().Apply(action)
	return turnbased.Progress{ToPlay: int(g.Seat), Turns: g.Turn, Over: g.state().Over()}, err
}

func (g *game) WriteMask(mask []uint8) {
	var legal duel.ActionSet
	g.state().Legal(&legal)
	bitset.WriteBytes(mask[:duel.NumActions], legal[:]) // a constant length: no bounds checks in the loop
}

func (g *game) Legal(buf []int) []int {
	var legal duel.ActionSet
	g.state().Legal(&legal)
	return bots.AppendSet(buf, legal[:])
}

func (g *game) Play(action int) {
	if err := g.state().Apply(action); err != nil {
		panic("duelenv: a bot chose an illegal action: " + err.Error())
	}
}

func (g *game) Random(r *rng.Rand) int {
	var legal duel.ActionSet
	g.state().Legal(&legal)
	return legal.Nth(r.Intn(legal.Len()))
}

func (g *game) Greedy(r *rng.Rand) int {
	var legal duel.ActionSet
	g.state().Legal(&legal)
	return greedyAction(g.state(), &legal, r)
}

func (g *game) Redeal(seat int, r *rng.Rand) { g.state().Redeal(seat, r) }

func (g *game) Outcome() bots.Outcome { return bots.Shares(g.state().Winners(), duel.NumPlayers) }
