package server

import "slices"

// The fuzzer's requests, one generator per op. Each draws its fields from a
// record's bytes and the model (fuzzBatch), and says what the reply must
// be: a request with a hostile field must fail, a request the model knows
// to be valid must succeed, and anything else may go either way.

// expectation is what a reply must be.
type expectation int

const (
	mayFail expectation = iota
	mustSucceed
	mustFail
)

func expect(bad, valid bool) expectation {
	switch {
	case bad:
		return mustFail
	case valid:
		return mustSucceed
	}
	return mayFail
}

// sentRequest is a request and what the checks need to know of it.
type sentRequest struct {
	m      msg    // the request, or nil for a frame built by hand
	frame  []byte // the frame as sent
	text   bool   // sent as a text message
	id     uint64 // the id its reply must carry
	anyID  bool   // the frame may break before its id: 0 is fine too
	op     string
	expect expectation
	b      *fuzzBatch // the batch it names, if a real one
	ids    []int      // the envs it names, when valid (nil: all)
	seat   *int
	n      int         // make: num_envs
	src    []int       // fork
	loaded []fuzzState // set_state
	bot    string      // bot_actions
	search *fuzzSearch
}

// fuzzEnvs are the games the fuzzer makes.
var fuzzEnvs = []string{"splendor-v1", "splendor-duel-v1"}

// named starts a request of op on a batch: an open one, or with bad set a
// handle that names none. gen is the batch to draw the other fields for (a
// stand-in when the handle is bad); m is nil when no batch is open.
func (s *fuzzSession) named(d *draw, op string) (m msg, b, gen *fuzzBatch, bad bool) {
	open := s.open()
	k, bad := d.choose(len(open), 6)
	if !bad && len(open) == 0 {
		return nil, nil, nil, false
	}
	m = msg{"op": op}
	if bad {
		m["handle"] = []any{0, uint64(1) << 40, -1, "1", 1.5, s.closedHandle()}[k]
		if gen = s.stub; len(open) > 0 {
			gen = open[0]
		}
		return m, nil, gen, true
	}
	b = open[k%len(open)]
	m["handle"] = b.handle
	return m, b, b, false
}

func (s *fuzzSession) genHello(d *draw) *sentRequest {
	m := msg{"op": "hello"}
	k, bad := d.choose(2, 2)
	switch {
	case bad:
		m[[]string{"token", "colour"}[k]] = 7
	case k == 1:
		m["token"] = "ignored: this server has none"
	}
	return &sentRequest{m: m, op: "hello", expect: expect(bad, true)}
}

func (s *fuzzSession) genMake(d *draw) *sentRequest {
	m := msg{"op": "make"}
	k, badEnv := d.choose(len(fuzzEnvs), 3)
	id := fuzzEnvs[k%len(fuzzEnvs)]
	m["env"] = id
	if badEnv {
		m["env"] = []any{"chess-v1", "", 7}[k]
	}
	n, badN := d.choose(4, 5)
	m["num_envs"] = n + 1
	if badN {
		m["num_envs"] = []any{0, -1, 1 << 40, "2", 2.0}[n]
	}
	badSeed := d.seed(m, "seed")
	simple, badOpts := d.options(m, s.h.options[id])
	bad := badEnv || badN || badSeed || badOpts
	return &sentRequest{m: m, op: "make", n: n + 1, expect: expect(bad, simple)}
}

// genSeeded is a reset or determinize: env ids and a seed for each (a
// reset's optional), or a make when there is no batch.
func (s *fuzzSession) genSeeded(d *draw, op string) *sentRequest {
	m, b, gen, bad := s.named(d, op)
	if m == nil {
		return s.genMake(d)
	}
	ids, badIDs := d.envIDs(m, "env_ids", gen.n)
	badSeeds := d.seeds(m, "seeds", count(ids, gen.n), op == "reset")
	r := &sentRequest{m: m, op: op, b: b, ids: ids}
	if op == "reset" {
		var badSeat bool
		r.seat, badSeat = d.seat(m, gen.players, false)
		bad = bad || badSeat
	}
	r.expect = expect(bad || badIDs || badSeeds, true)
	return r
}

func (s *fuzzSession) genStep(d *draw) *sentRequest {
	m, b, gen, bad := s.named(d, "step")
	if m == nil {
		return s.genMake(d)
	}
	actions := gen.pickActions(d.byte())
	k, badActions := d.choose(4, 7)
	if badActions {
		m["actions"] = badActionsTensor(k, actions, gen.actions)
	} else {
		actions = withActions(m, k, actions, gen)
	}
	seat, badSeat := d.seat(m, gen.players, false)
	bad = bad || badActions || badSeat
	return &sentRequest{m: m, op: "step", b: b, seat: seat, expect: expect(bad, b != nil && b.steppable(actions))}
}

// pickActions is, for env i, its (k+i)-th legal action counting round its
// mask, or 0 where it has none.
func (b *fuzzBatch) pickActions(k byte) []int64 {
	actions := make([]int64, b.n)
	for i := range actions {
		if legal := b.legal(i); len(legal) > 0 {
			actions[i] = int64(legal[(int(k)+i)%len(legal)])
		}
	}
	return actions
}

// withActions puts actions into m as int32 (k 0), int64 (1) or uint8 (2,
// where every action fits), or (3) with env 0's action masked out, which
// the batch's illegal_action policy decides; it returns what it sent.
func withActions(m msg, k int, actions []int64, b *fuzzBatch) []int64 {
	dtype := []string{"int32", "int64", "uint8", "int32"}[k]
	if dtype == "uint8" && b.actions > 256 {
		dtype = "int32"
	}
	if k == 3 {
		if i := slices.Index(b.row(0), 0); i >= 0 {
			actions = slices.Clone(actions)
			actions[0] = int64(i)
		}
	}
	m["actions"] = tensor(dtype, []int{len(actions)}, intBytes(dtype, actions))
	return actions
}

// badActionsTensor is an actions tensor the protocol refuses: k picks a
// float dtype, a wrong shape, short data, an action out of range (na, −1
// or past int32) or none at all.
func badActionsTensor(k int, actions []int64, na int) any {
	n := len(actions)
	out := slices.Clone(actions)
	switch k {
	case 0:
		return tensor("float32", []int{n}, float32Bytes(make([]float32, n)))
	case 1:
		return tensor("int32", []int{n + 1}, intBytes("int32", append(out, 0)))
	case 2:
		return tensor("int32", []int{n}, intBytes("int32", out)[1:])
	case 3:
		out[0] = int64(na)
	case 4:
		out[0] = -1
	case 5:
		out[0] = 1 << 40
		return tensor("int64", []int{n}, intBytes("int64", out))
	case 6:
		return nil
	}
	return tensor("int32", []int{n}, intBytes("int32", out))
}

func (s *fuzzSession) genClose(d *draw) *sentRequest {
	m, b, _, bad := s.named(d, "close")
	if m == nil {
		return s.genMake(d)
	}
	return &sentRequest{m: m, op: "close", b: b, expect: expect(bad, true)}
}

func (s *fuzzSession) genGetState(d *draw) *sentRequest {
	m, b, gen, bad := s.named(d, "get_state")
	if m == nil {
		return s.genMake(d)
	}
	ids, badIDs := d.envIDs(m, "env_ids", gen.n)
	return &sentRequest{m: m, op: "get_state", b: b, ids: ids, expect: expect(bad || badIDs, true)}
}

func (s *fuzzSession) genSetState(d *draw) *sentRequest {
	m, b, gen, bad := s.named(d, "set_state")
	if m == nil {
		return s.genMake(d)
	}
	ids, badIDs := d.envIDs(m, "env_ids", gen.n)
	states, sure, badStates := s.statesFor(d, gen, count(ids, gen.n))
	if states == nil && b != nil { // nothing to load yet: read some first
		m["op"] = "get_state"
		delete(m, "env_ids")
		return &sentRequest{m: m, op: "get_state", b: b, expect: mustSucceed}
	}
	texts := make([]string, len(states))
	for k, st := range states {
		texts[k] = st.text
	}
	m["states"] = texts
	bad = bad || badIDs || badStates
	return &sentRequest{m: m, op: "set_state", b: b, ids: ids, loaded: states, expect: expect(bad, sure)}
}

// statesFor is k states to load into b: read from b or from another batch
// of the same table (sure: they must load), or one of them cut or changed
// (they may); hostile lists have the wrong length or hold no state of b's
// game. nil when no state of b's table is known.
func (s *fuzzSession) statesFor(d *draw, b *fuzzBatch, k int) (states []fuzzState, sure, bad bool) {
	alt, bad := d.choose(3, 4)
	if bad { // one state too many, or states that are none
		n := max(k, 1)
		if alt == 0 {
			n = k + 1
		}
		text := []string{"", "", "garbage", "0 0 0 0 0 0 0; " + b.env}[alt]
		return slices.Repeat([]fuzzState{{text: text}}, n), false, true
	}
	known := s.knownStates(b, alt == 1)
	if len(known) == 0 {
		return nil, false, false
	}
	start := d.pick(len(known))
	for j := range k {
		states = append(states, known[(start+j)%len(known)])
	}
	if alt == 2 && k > 0 {
		states[0] = fuzzState{text: mutate(states[0].text, d.byte(), d.byte())}
	}
	return states, alt < 2, false
}

// knownStates are the states read from b, or from any batch of its table.
func (s *fuzzSession) knownStates(b *fuzzBatch, anyBatch bool) []fuzzState {
	var out []fuzzState
	for _, c := range s.batches {
		if c == b || (anyBatch && c.sameTable(b)) {
			for i := range c.n {
				if st, ok := c.states[i]; ok {
					out = append(out, st)
				}
			}
		}
	}
	return out
}

// mutate changes a state's text: it cuts it at a point, or changes a byte.
func mutate(st string, where, what byte) string {
	i := int(where) * len(st) / 256
	if what < 64 {
		return st[:i]
	}
	return st[:i] + string("0123456789 ;,-abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ|/"[int(what)%68]) + st[min(i+1, len(st)):]
}

func (s *fuzzSession) genFork(d *draw) *sentRequest {
	m, b, gen, bad := s.named(d, "fork")
	if m == nil {
		return s.genMake(d)
	}
	k, badFork := d.choose(3, 4)
	c := 1 + d.pick(gen.n)
	src, dst := make([]int, c), run(0, gen.n)
	for j := range src {
		src[j] = d.pick(gen.n)
	}
	rot := d.pick(gen.n)
	dst = append(dst[rot:], dst[:rot]...)[:c]
	switch {
	case badFork && k == 0: // lengths differ
		src = append(src, 0)
	case badFork && k == 1:
		dst = []int{0, 0}
	case badFork && k == 2:
		src[0] = gen.n
	case k == 1:
		src, dst = []int{}, []int{}
	case k == 2:
		src = dst
	}
	m["src"], m["dst"] = src, dst
	if badFork && k == 3 {
		delete(m, "dst")
	}
	bad = bad || badFork
	return &sentRequest{m: m, op: "fork", b: b, ids: dst, src: src, expect: expect(bad, true)}
}
