package server

import (
	"fmt"
	"math"
	"slices"
	"strings"
)

// The fuzzer's checks of what searches return: bots' advice and targets,
// a guided search's leaves and its results.

func (s *fuzzSession) botActions(r *sentRequest, m msg) {
	b, ids := r.b, r.b.allIDs(r.ids)
	actions := decodeInt32s(s.tensorIn(m, "actions", "int32", len(ids)))
	var policy, value []float32
	if r.m["targets"] == true {
		policy = decodeFloat32s(s.tensorIn(m, "policy", "float32", len(ids), b.actions))
		value = decodeFloat32s(s.tensorIn(m, "value", "float32", len(ids)))
	}
	for k, i := range ids {
		var root []uint8
		if b.known[i] {
			root = b.row(i)
		}
		what := fmt.Sprintf("bot_actions: env %d", i)
		s.checkAction(what, int(actions[k]), root, b.actions)
		if policy != nil {
			// The targets' value is an outcome share on the rewards' scale.
			low := -1 / float64(max(b.players-1, 1))
			visits := !strings.HasPrefix(r.bot, "gumbel") // Gumbel's improved policy is no visit count
			s.checkTargets(what, int(actions[k]), root, policy[k*b.actions:(k+1)*b.actions], value[k], low, visits)
		}
	}
}

// checkAction: the action is −1 exactly when the env's episode is over
// (its mask, when known, is empty), else one of its legal actions.
func (s *fuzzSession) checkAction(what string, action int, root []uint8, na int) {
	over := root != nil && !slices.Contains(root, 1)
	switch {
	case action < -1 || action >= na:
		s.fail("%s: action %d is outside [−1, %d)", what, action, na)
	case action == -1 && root != nil && !over:
		s.fail("%s: action −1 for an env whose episode is not over", what)
	case action >= 0 && over:
		s.fail("%s: action %d for an env whose episode is over", what, action)
	case action >= 0 && root != nil && root[action] != 1:
		s.fail("%s: action %d is not legal", what, action)
	}
}

// checkTargets checks a policy row and a value: zeros for an env whose
// episode is over; else a distribution over the legal actions (its
// largest entry the action, when the policy is a visit count) and a finite
// value in [low, 1].
func (s *fuzzSession) checkTargets(what string, action int, root []uint8, policy []float32, value float32, low float64, visits bool) {
	if action == -1 {
		if !allZero(float32Bytes(policy)) || value != 0 {
			s.fail("%s: an env whose episode is over has policy %v and value %v, not zeros", what, policy, value)
		}
		return
	}
	if !(float64(value) >= low-1e-6 && value <= 1+1e-6) {
		s.fail("%s: value %v is not a number in [%.3g, 1]", what, value, low)
	}
	sum, top := 0.0, float32(0)
	for a, p := range policy {
		if !(p >= 0) || math.IsInf(float64(p), 0) || (root != nil && root[a] == 0 && p != 0) {
			s.fail("%s: policy of action %d is %v: want a finite number ≥ 0, 0 where illegal", what, a, p)
		}
		sum, top = sum+float64(p), max(top, p)
	}
	if math.Abs(sum-1) > 1e-3 {
		s.fail("%s: policy sums to %v, not 1", what, sum)
	}
	if visits && policy[action] < top-1e-6 {
		s.fail("%s: action %d has policy %v, below the largest %v", what, action, policy[action], top)
	}
}

// searchReply checks a search's or an evaluate's reply: the next leaves,
// or once done each env's result; the model holds the search meanwhile.
func (s *fuzzSession) searchReply(r *sentRequest, m msg) {
	b, fs := r.b, r.search
	if r.op == "search" {
		fs.ids = b.allIDs(r.ids)
		fs.roots = b.searchRoots(fs.ids)
	} else if fs.leafEnvs == nil {
		s.fail("evaluate: accepted on a batch with no search waiting in part %d", fs.part)
	}
	b.searches[fs.part] = nil
	done := m["done"] == true
	if done {
		s.searchResults(fs, b, m)
	}
	l := leafCount(m)
	envs := decodeInt32s(s.tensorIn(m, "leaf_envs", "int32", l))
	s.tensorIn(m, "obs", b.dtype, l, b.seatObs)
	mask := s.leafMasks(m, fs.packed, l, b.actions)
	switch {
	case done && l != 0:
		s.fail("search: done with %d leaves", l)
	case done:
		return
	}
	s.checkLeaves(fs, envs, mask, b.actions)
	fs.leafEnvs, fs.leafMask = envs, mask
	b.searches[fs.part] = fs
}

// leafMasks are a search reply's masks, [l, na] bytes, from mask, or when
// the search is packed from mask_bits (and then it has no mask).
func (s *fuzzSession) leafMasks(m msg, packed bool, l, na int) []uint8 {
	if !packed {
		return s.tensorIn(m, "mask", "uint8", l, na)
	}
	if _, ok := m["mask"]; ok {
		s.fail("a packed search's reply has a mask")
	}
	return unpackBits(s.tensorIn(m, "mask_bits", "uint8", l, (na+7)/8), max(l, 0), na)
}

// checkLeaves: at least one leaf, at most leaves_per_env of each env
// searched, an env's leaves together and in the order of the envs, each
// with a legal action (a leaf is a position someone must play).
func (s *fuzzSession) checkLeaves(fs *fuzzSearch, envs []int32, mask []uint8, na int) {
	if len(envs) == 0 || len(envs) > len(fs.ids)*fs.leavesPerEnv {
		s.fail("search: %d leaves for %d envs at %d leaves per env, and not done", len(envs), len(fs.ids), fs.leavesPerEnv)
	}
	s.bits("mask", mask)
	at, run := -1, 0 // the position in fs.ids of the last leaf's env, and its leaves so far
	for j, e := range envs {
		k := slices.Index(fs.ids, int(e))
		switch {
		case k < 0 || k < at:
			s.fail("search: leaf %d is of env %d: not an env searched, or out of order (%v)", j, e, fs.ids)
		case k == at:
			run++
		default:
			at, run = k, 1
		}
		if run > fs.leavesPerEnv {
			s.fail("search: env %d has more than %d leaves", e, fs.leavesPerEnv)
		}
		if !slices.Contains(mask[j*na:(j+1)*na], 1) {
			s.fail("search: leaf %d (env %d) has no legal action", j, e)
		}
	}
}

// searchResults checks a done search's policy, value and action for every
// env searched, against its mask when the search started.
func (s *fuzzSession) searchResults(fs *fuzzSearch, b *fuzzBatch, m msg) {
	k := len(fs.ids)
	policy := decodeFloat32s(s.tensorIn(m, "policy", "float32", k, b.actions))
	value := decodeFloat32s(s.tensorIn(m, "value", "float32", k))
	action := decodeInt32s(s.tensorIn(m, "action", "int32", k))
	for j, i := range fs.ids {
		what := fmt.Sprintf("search (%s): env %d", fs.algorithm, i)
		s.checkAction(what, int(action[j]), fs.roots[j], b.actions)
		s.checkTargets(what, int(action[j]), fs.roots[j], policy[j*b.actions:(j+1)*b.actions], value[j], -1,
			fs.algorithm == "puct")
	}
}
