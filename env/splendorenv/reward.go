package splendorenv

import (
	"github.com/splendor-rl/splendor/env"
	"github.com/splendor-rl/splendor/env/splendor"
)

// maxShapingPerStep bounds one step's score_diff shaping: a seat gains at most
// 5 (card) + 3 (noble) points per turn, and in the worst case its own gain
// and the others' mean gain both count, over the 15-point scale.
const maxShapingPerStep = float32(2*(5+splendor.NoblePoints)) / splendor.WinningScore

// score adds the step's rewards: the shaping difference (score_diff only)
// and, when the game has just ended by the rules, the terminal reward.
func (e *Env) score() {
	if e.c.reward == RewardScoreDiff {
		now := e.potentials()
		for i := 0; i < e.c.players; i++ {
			e.rewards[i] += now[i] - e.potential[i]
		}
		e.potential = now
	}
	if e.s.Over() && !e.s.Blocked() {
		env.TerminalRewards(e.s.Winners(), e.rewards[:e.c.players])
	}
}

// potentials: each seat's score_diff potential.
func (e *Env) potentials() [splendor.MaxPlayers]float32 {
	var points [splendor.MaxPlayers]int
	for i := 0; i < e.c.players; i++ {
		points[i] = int(e.s.Players[i].Points)
	}
	var p [splendor.MaxPlayers]float32
	env.ScoreDiffPotentials(points[:e.c.players], splendor.WinningScore, p[:e.c.players])
	return p
}
