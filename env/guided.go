package env

import (
	"fmt"

	"github.com/splendor-rl/splendor/env/bots"
)

// Guider is implemented by envs that can run guided searches (bots.Search)
// of their game: search over the wire with the client's network as the
// evaluator, and the guided bots of bot_actions.
type Guider interface {
	GuidedSearch(set bots.GuidedSettings, seed uint64) bots.Search
}

// guidedAdvice is advise for a guided search that evaluates its own leaves
// ("gumbel:1000"): each env of ids runs one to its end, one env per search
// slot at a time; with t, its improved policy and root value are the
// targets.
func (v *Vector) guidedAdvice(ids []int, set bots.GuidedSettings, seeds []uint64, t *BotTargets) ([]int32, error) {
	if _, ok := v.envs[0].(Guider); !ok {
		return nil, fmt.Errorf("%w: %s has no guided search", ErrBadOption, v.Spec.ID)
	}
	out := make([]int32, len(ids))
	na := v.Spec.NumActions
	v.each = func(k int) {
		i := ids[k]
		out[k] = -1
		if v.pending[i] || v.over[i] || v.stopped.Load() {
			return
		}
		s := v.envs[i].(Guider).GuidedSearch(set, seeds[k])
		defer s.Release()
		for s.Next(nil, nil) != bots.Done {
			panic("env: a playout search asked for an evaluation")
		}
		var policy []float32
		if t != nil {
			policy = t.Policy[k*na : (k+1)*na]
		}
		action, value := s.Result(policy)
		out[k] = int32(action)
		if t != nil {
			t.Value[k] = value
		}
	}
	v.runSearches(len(ids))
	v.each = nil
	if v.stopped.Load() {
		return nil, ErrStopped
	}
	return out, nil
}
