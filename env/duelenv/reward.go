package duelenv

import (
	"github.com/splendor-rl/splendor/env"
	"github.com/splendor-rl/splendor/env/duel"
)

// maxShapingPerStep bounds one step's score_diff shaping: between two client
// decisions each seat gains at most a card's and a royal's prestige and more
// through an extra turn; 2·(2 turns · (6 + 3))/20 is a safe bound.
const maxShapingPerStep = float32(2*2*(6+3)) / duel.PointsToWin

// score adds the step's rewards: the shaping difference (score_diff only)
// and, when the game has just been won, the terminal reward.
func (e *Env) score() {
	if e.c.reward == RewardScoreDiff {
		now := e.potentials()
		for i := range e.rewards {
			e.rewards[i] += now[i] - e.potential[i]
		}
		e.potential = now
	}
	if e.s.Over() && !e.s.Blocked() {
		env.TerminalRewards(e.s.Winners(), e.rewards[:])
	}
}

func (e *Env) potentials() [duel.NumPlayers]float32 {
	points := [duel.NumPlayers]int{int(e.s.Players[0].Points), int(e.s.Players[1].Points)}
	var p [duel.NumPlayers]float32
	env.ScoreDiffPotentials(points[:], duel.PointsToWin, p[:])
	return p
}
