package envtest

import (
	"encoding/binary"
	"hash/fnv"
	"math"
	"testing"

	"github.com/splendor-rl/splendor/env"
	"github.com/splendor-rl/splendor/internal/rng"
	"github.com/stretchr/testify/require"
)

// TrajectoryHash plays steps batched steps of n envs of id with opts (seeded
// random legal actions; an illegal one now and then under the forfeit
// policy) and hashes everything a client sees: observations, masks, rewards,
// end flags and seats after every step, and every 50th step each env's
// state text, the greedy bot's advice and the referee's text board. Equal
// hashes before and after a change mean the same games, bit for bit.
func TrajectoryHash(t testing.TB, id string, opts env.Options, n, steps int) (hash uint64, episodes int) {
	v, err := env.Make(id, n, opts, 7, nil)
	require.NoError(t, err)
	require.NoError(t, v.Reset(nil, nil))
	h := fnv.New64a()
	word := func(x uint64) { h.Write(binary.LittleEndian.AppendUint64(nil, x)) }
	r := rng.New(3)
	actions := make([]int32, n)
	forfeits := v.Spec.IllegalAction == env.IllegalForfeit
	for step := 0; step < steps; step++ {
		for i := range actions {
			actions[i] = env.SampleLegal(v.Mask[i*v.Spec.NumActions:(i+1)*v.Spec.NumActions], &r)
			if forfeits && r.Intn(200) == 0 {
				actions[i] = int32(r.Intn(v.Spec.NumActions))
			}
		}
		require.NoError(t, v.Step(actions))
		h.Write(v.Obs)
		h.Write(v.Mask)
		for i := range n {
			for _, x := range v.Rewards[i*v.Spec.Players : (i+1)*v.Spec.Players] {
				word(uint64(math.Float32bits(x)))
			}
			word(uint64(v.ToPlay[i])<<2 | uint64(btoi(v.Terminated[i]))<<1 | uint64(btoi(v.Truncated[i])))
			episodes += btoi(v.Terminated[i] || v.Truncated[i])
		}
		if step%50 == 0 {
			hashSearchOps(t, v, step, h.Write, word)
		}
	}
	return h.Sum64(), episodes
}

// hashSearchOps hashes the state ops' answers: state text, greedy advice and
// the referee's board.
func hashSearchOps(t testing.TB, v *env.Vector, step int, write func([]byte) (int, error), word func(uint64)) {
	states, err := v.States(nil)
	require.NoError(t, err)
	advice, err := v.BotActions(nil, "greedy", uint64(step), nil)
	require.NoError(t, err)
	_, boards, err := v.Views(nil, -1)
	require.NoError(t, err)
	for i := range states {
		write([]byte(states[i]))
		write([]byte(boards[i]))
		word(uint64(advice[i]))
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
