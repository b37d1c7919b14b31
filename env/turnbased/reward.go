package turnbased

import (
	"github.com/splendor-rl/splendor/env/bots"
)

// score adds the step's rewards: the shaping difference (score_diff only)
// and, when the game has just ended by the rules, the terminal reward.
func (e *Env[S, G]) score() {
	n := e.c.players
	if e.c.reward == RewardScoreDiff {
		now := e.potentials()
		for i := range n {
			e.rewards[i] += now[i] - e.potential[i]
		}
		e.potential = now
	}
	if !e.over { // asked first: Winners is a call through the generic dictionary at every step
		return
	}
	if w := e.rules().Winners(); w != 0 { // no winner: blocked
		TerminalRewards(w, e.rewards[:n])
	}
}

// potentials: each seat's score_diff potential.
func (e *Env[S, G]) potentials() [bots.MaxSeats]float32 {
	n := e.c.players
	var points [bots.MaxSeats]int
	for i := range n {
		points[i] = e.rules().Points(i)
	}
	var p [bots.MaxSeats]float32
	ScoreDiffPotentials(points[:n], float32(e.game.WinningScore), p[:n])
	return p
}

// TerminalRewards adds each seat's end-of-game reward to r (len = players):
// (N·w/k − 1)/(N − 1), where w is 1 for a winner (bit i of winners for seat
// i) and k the number of winners: +1 for a sole winner, −1/(N−1) for each
// loser, a zero-sum split for a shared win. (Written so that the usual
// values are exact in float32.)
func TerminalRewards(winners uint8, r []float32) {
	n := float32(len(r))
	k := float32(0)
	for i := range r {
		k += float32(winners >> i & 1)
	}
	for i := range r {
		w := float32(winners >> i & 1)
		r[i] += (n*w/k - 1) / (n - 1)
	}
}

// ScoreDiffPotentials writes, for each seat, its points minus the mean of
// the others' points, over scale; they sum to zero, so shaping by their
// change is zero-sum too.
func ScoreDiffPotentials(points []int, scale float32, p []float32) {
	total := 0
	for _, x := range points {
		total += x
	}
	others := float32(len(points) - 1)
	for i, x := range points {
		p[i] = (float32(x) - float32(total-x)/others) / scale
	}
}
