package server

import (
	"bytes"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
)

// The fuzzer's requests of bots' advice, views and guided searches.

// fuzzBots are bot names bot_actions takes, searching ones with budgets
// small enough for 4 envs within fuzzConfig's max_search_iterations.
var fuzzBots = []string{"random", "greedy", "mcts:4", "mcts:iterations=3,rollout=random,exploration=2",
	"gumbel:3", "puct:3", "baseline", "baseline+search:2"}

// botSearches reports whether a fuzzBots name searches: it can give targets.
func botSearches(bot string) bool { return bot != "random" && bot != "greedy" && bot != "baseline" }

func (s *fuzzSession) genBotActions(d *draw) *sentRequest {
	m, b, gen, bad := s.named(d, "bot_actions")
	if m == nil {
		return s.genMake(d)
	}
	ids, badIDs := d.envIDs(m, "env_ids", gen.n)
	k, badBot := d.choose(len(fuzzBots), 6)
	bot := fuzzBots[k%len(fuzzBots)]
	m["bot"] = bot
	if badBot {
		m["bot"] = []any{"", "mcts:0", "mcts:20001", "alphabeta", 5, "greedy:3"}[k]
	}
	targets := d.pick(3) == 2
	if targets {
		m["targets"] = true
	}
	badSeeds := d.seedOrSeeds(m, count(ids, gen.n))
	bad = bad || badIDs || badBot || badSeeds || (targets && !botSearches(bot))
	valid := !strings.HasPrefix(bot, "baseline") // a network the server may lack for the table
	return &sentRequest{m: m, op: "bot_actions", b: b, ids: ids, bot: bot, expect: expect(bad, valid)}
}

// seedOrSeeds puts a seed or k seeds into m (hostile: both, or bad ones).
func (d *draw) seedOrSeeds(m msg, k int) (bad bool) {
	switch d.pick(8) {
	case 0, 1, 2, 3:
		return d.seed(m, "seed")
	case 7:
		m["seed"] = 1
		d.seeds(m, "seeds", k, false)
		return true
	}
	return d.seeds(m, "seeds", k, true)
}

func (s *fuzzSession) genView(d *draw) *sentRequest {
	m, b, gen, bad := s.named(d, "view")
	if m == nil {
		return s.genMake(d)
	}
	ids, badIDs := d.envIDs(m, "env_ids", gen.n)
	seat, badSeat := d.seat(m, gen.players, true)
	bad = bad || badIDs || badSeat
	return &sentRequest{m: m, op: "view", b: b, ids: ids, seat: seat, expect: expect(bad, true)}
}

// fuzzSetting is a search setting: valid values and refused ones.
type fuzzSetting struct {
	name           string
	valid, hostile []any
}

// fuzzSettings are the search settings; the first three, which shape a
// search's round trips, are drawn for every search.
var fuzzSettings = []fuzzSetting{
	{"algorithm", []any{"gumbel", "puct"}, []any{"alphabeta", 1}},
	{"leaves_per_env", []any{1, 2}, []any{0, 3}},
	{"playouts", []any{true, false}, []any{1, "yes"}},
	{"pb_c_init", []any{0.0, 1.25, 5, 1e6}, []any{-1.0, math.NaN(), math.Inf(1)}},
	{"pb_c_base", []any{1e-6, 19652, 1e9}, []any{0, math.Inf(1)}},
	{"dirichlet_alpha", []any{1e-6, 0.3, 1e9}, []any{0, math.NaN()}},
	{"dirichlet_fraction", []any{0, 0.25, 1.0}, []any{2, -0.1}},
	{"max_num_considered_actions", []any{1, 2, 16, 1024}, []any{0, 1025}},
	{"gumbel_scale", []any{0, 1, 1e6}, []any{-1, math.Inf(-1)}},
	{"maxvisit_init", []any{1e-6, 50, 1e9}, []any{0, 1e10}},
	{"value_scale", []any{0, 0.1, 1, 1e6}, []any{-0.5, 2e6}},
	{"fpu_reduction", []any{0, 0.25, 2}, []any{-0.1, 2.5, math.NaN()}},
	{"depth", nil, []any{3}}, // no such setting
}

// settings puts a search's settings into m: a few simulations (1–8, so
// that 4 envs stay within max_search_iterations, or 64, which may not),
// the settings that shape its round trips, and a few others; the search
// it describes is returned.
func (d *draw) settings(m msg) (fs *fuzzSearch, sure, bad bool) {
	fs = &fuzzSearch{algorithm: "gumbel", leavesPerEnv: 1}
	set := msg{}
	m["settings"] = set
	sims, bad := d.choose(9, 5)
	set["simulations"], sure = []int{1, 2, 3, 4, 5, 6, 7, 8, 64}[sims], sims < 8
	if bad {
		set["simulations"] = []any{0, 4097, "8", 2.5, -3}[sims]
		if sims == 4 {
			m["settings"] = "fast"
		}
	}
	refused := map[string]bool{} // a setting drawn twice takes its last value
	for _, s := range fuzzSettings[:3] {
		d.setting(set, refused, s)
	}
	for range d.pick(4) {
		d.setting(set, refused, fuzzSettings[3+d.pick(len(fuzzSettings)-3)])
	}
	for _, r := range refused {
		bad = bad || r
	}
	if a, ok := set["algorithm"].(string); ok {
		fs.algorithm = a
	}
	if l, ok := set["leaves_per_env"].(int); ok {
		fs.leavesPerEnv = l
	}
	return fs, sure, bad
}

// setting puts a value of s into set, or for choice 0 leaves it out;
// refused notes a value the search must refuse.
func (d *draw) setting(set msg, refused map[string]bool, s fuzzSetting) {
	k, hostile := d.choose(len(s.valid)+1, len(s.hostile))
	switch {
	case hostile || s.valid == nil:
		set[s.name], refused[s.name] = s.hostile[k%len(s.hostile)], true
	case k > 0:
		set[s.name], refused[s.name] = s.valid[k-1], false
	}
}

func (s *fuzzSession) genSearch(d *draw) *sentRequest {
	m, b, gen, bad := s.named(d, "search")
	if m == nil {
		return s.genMake(d)
	}
	ids, badIDs := d.envIDs(m, "env_ids", gen.n)
	badSeeds := d.seedOrSeeds(m, count(ids, gen.n))
	fs, sure, badSet := d.settings(m)
	badPart := d.part(m, fs)
	if fs.packed = d.pick(2) == 1; fs.packed {
		m["packed"] = true
	}
	bad = bad || badIDs || badSeeds || badSet || badPart || b != nil && b.overSearched(fs.part, count(ids, gen.n))
	return &sentRequest{m: m, op: "search", b: b, ids: ids, search: fs, expect: expect(bad, sure)}
}

// overSearched reports that a search of n envs in part, with the searches
// of the batch's other parts, would search more envs than the batch has.
func (b *fuzzBatch) overSearched(part, n int) bool {
	for p, fs := range b.searches {
		if p != part && fs != nil {
			n += len(fs.ids)
		}
	}
	return n > b.n
}

// part puts the part of a search into m: mostly 0 (left out) or 1, or
// with bad set a part there is not.
func (d *draw) part(m msg, fs *fuzzSearch) (bad bool) {
	k, bad := d.choose(2, 2)
	switch {
	case bad:
		m["part"] = []int{MaxSearchParts, -1}[k]
	case k > 0:
		m["part"], fs.part = k, k
	}
	return bad
}

// genEvaluate answers a waiting search's leaves, mostly on a batch that
// has one.
func (s *fuzzSession) genEvaluate(d *draw) *sentRequest {
	var m msg
	b, fs := s.searching(d.byte())
	if b != nil {
		m = msg{"op": "evaluate", "handle": b.handle}
		if fs.part != 0 {
			m["part"] = fs.part
		}
	} else if m, b, _, _ = s.named(d, "evaluate"); m == nil {
		return s.genMake(d)
	} else {
		fs = &fuzzSearch{part: d.pick(MaxSearchParts)} // no search waits there
		if fs.part != 0 {
			m["part"] = fs.part
		}
	}
	na := s.stub.actions
	if b != nil {
		na = b.actions
	}
	bad := evaluation(m, d, fs, na)
	return &sentRequest{m: m, op: "evaluate", b: b, search: fs, expect: expect(bad || fs.leafEnvs == nil, true)}
}

// searching is a search waiting for evaluations and its batch (the k-th,
// counting round them), or nils.
func (s *fuzzSession) searching(k byte) (*fuzzBatch, *fuzzSearch) {
	type waiting struct {
		b  *fuzzBatch
		fs *fuzzSearch
	}
	var out []waiting
	for _, b := range s.open() {
		for _, fs := range b.searches {
			if fs != nil {
				out = append(out, waiting{b, fs})
			}
		}
	}
	if len(out) == 0 {
		return nil, nil
	}
	w := out[int(k)%len(out)]
	return w.b, w.fs
}

// evaluation puts priors and values for fs's leaves into m: valid ones
// (uniform, random, mass on illegal actions too, one-hot, huge or tiny
// priors; values at and inside ±1) or, with bad set, refused ones.
func evaluation(m msg, d *draw, fs *fuzzSearch, na int) (bad bool) {
	k, bad := d.choose(6, 10)
	r := d.rand()
	if !bad {
		validEvaluation(m, r, k, fs, na)
		return false
	}
	l := len(fs.leafEnvs)
	priors, values := make([]float32, l*na), make([]float32, l)
	if fill(r, 1, fs.leafMask, priors, values); l > 0 {
		corrupt(k, r.IntN(l), fs.leafMask, priors, values)
	}
	key := putPriors(m, fs, priors, values)
	switch {
	case k == 6:
		shape := m[key].(msg)["shape"].([]int)
		shape[0]++
	case k == 7:
		m["values"] = tensor("float64", []int{l}, make([]byte, 8*l))
	case k == 8:
		delete(m, "values")
	case k == 9: // the other kind of search's field
		m[map[string]string{"priors": "legal_priors", "legal_priors": "priors"}[key]] = m[key]
		delete(m, key)
	}
	return true
}

// validEvaluation puts valid priors and values of kind k for fs's leaves
// into m.
func validEvaluation(m msg, r *rand.Rand, k int, fs *fuzzSearch, na int) {
	l := len(fs.leafEnvs)
	priors, values := make([]float32, l*na), make([]float32, l)
	fill(r, k, fs.leafMask, priors, values)
	putPriors(m, fs, priors, values)
}

// putPriors puts priors [L, actions] and values into m as fs takes them:
// whole rows, or packed the priors of the legal actions alone. It returns
// the priors' key.
func putPriors(m msg, fs *fuzzSearch, priors, values []float32) string {
	m["values"] = tensor("float32", []int{len(values)}, float32Bytes(values))
	if !fs.packed {
		m["priors"] = tensor("float32", []int{len(values), len(priors) / max(len(values), 1)}, float32Bytes(priors))
		return "priors"
	}
	var legal []float32
	for a, p := range priors {
		if fs.leafMask[a] == 1 {
			legal = append(legal, p)
		}
	}
	m["legal_priors"] = tensor("float32", []int{len(legal)}, float32Bytes(legal))
	return "legal_priors"
}

// fill writes valid evaluations of kind k.
func fill(r *rand.Rand, k int, mask []uint8, priors, values []float32) {
	na := len(priors) / max(len(values), 1)
	for j := range values {
		row, legal := priors[j*na:(j+1)*na], mask[j*na:(j+1)*na]
		values[j] = []float32{0, 2*r.Float32() - 1, float32(1 - 2*r.IntN(2)), 2*r.Float32() - 1,
			float32(math.Copysign(0, -1)), math.SmallestNonzeroFloat32}[k]
		one := slices.Index(legal, 1)
		if one < 0 { // a leaf with no legal action: the checks report it
			continue
		}
		for a := range row {
			switch {
			case k == 2:
				row[a] = r.Float32()
			case legal[a] == 0:
			case k == 0:
				row[a] = 1
			case k == 1:
				row[a] = 1 - r.Float32()
			case k == 4:
				row[a] = 3e38
			}
		}
		row[one] += []float32{0, 0, 1, 1, 0, math.SmallestNonzeroFloat32}[k]
	}
}

// corrupt makes leaf j's evaluation one the protocol refuses (k < 6): a
// bad prior goes to a legal action, which a packed search is sent too.
func corrupt(k, j int, mask []uint8, priors, values []float32) {
	na := len(priors) / len(values)
	row := priors[j*na : (j+1)*na]
	first, last := max(slices.Index(mask[j*na:(j+1)*na], 1), 0), max(bytes.LastIndexByte(mask[j*na:(j+1)*na], 1), 0)
	switch k {
	case 0:
		row[first] = float32(math.NaN())
	case 1:
		row[last] = float32(math.Inf(1))
	case 2:
		row[first] = -0.25
	case 3:
		values[j] = math.Nextafter32(1, 2)
	case 4:
		values[j] = float32(math.NaN())
	case 5: // mass on illegal actions only
		for a := range row {
			row[a] = float32(1 - mask[j*na+a])
		}
	}
}
