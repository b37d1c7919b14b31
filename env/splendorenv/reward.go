package splendorenv

import "github.com/splendor-rl/splendor/env/splendor"

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
		e.addTerminal()
	}
}

// addTerminal gives each seat (N·w/k − 1)/(N − 1), where w is 1 for a winner
// and k the number of winners: +1 for a sole winner, −1/(N−1) for each loser,
// a zero-sum split for a shared win. (Written so that the usual values are
// exact in float32.)
func (e *Env) addTerminal() {
	winners := e.s.Winners()
	n := float32(e.c.players)
	k := float32(0)
	for i := 0; i < e.c.players; i++ {
		k += float32(winners >> i & 1)
	}
	for i := 0; i < e.c.players; i++ {
		w := float32(winners >> i & 1)
		e.rewards[i] += (n*w/k - 1) / (n - 1)
	}
}

// potentials: each seat's points minus the mean of the others', over 15.
// They sum to zero, so the shaping is zero-sum too.
func (e *Env) potentials() [splendor.MaxPlayers]float32 {
	var p [splendor.MaxPlayers]float32
	total := float32(0)
	for i := 0; i < e.c.players; i++ {
		total += float32(e.s.Players[i].Points)
	}
	others := float32(e.c.players - 1)
	for i := 0; i < e.c.players; i++ {
		mine := float32(e.s.Players[i].Points)
		p[i] = (mine - (total-mine)/others) / splendor.WinningScore
	}
	return p
}
