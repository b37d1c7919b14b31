package bots

import (
	"math"
	"math/bits"
	"sync"
	"sync/atomic"

	"github.com/splendor-rl/splendor/internal/bitset"
	"github.com/splendor-rl/splendor/internal/rng"
)

// Baseline bots play a trained policy-value network that ships with the
// server ("baseline"): its argmax over the legal actions, or a guided
// search whose leaves it evaluates in-process ("baseline+search:N"). The
// network stays outside this package (env/nets reads and evaluates it);
// the bot sees it only as an Evaluator.

// Evaluator evaluates a policy-value network on one goroutine: Evaluate
// writes the logits of obs over the whole action space and its values, in
// [−1, 1], from the view of the seat whose observation obs is: that seat's
// own, or every seat's, its own first (Search's Expand takes either). It
// must not allocate: a baseline bot calls it per decision, or per
// simulation.
type Evaluator interface {
	Evaluate(obs []uint8, logits, values []float32)
}

// Network is a network as a baseline bot plays it: the length of the
// observations it reads, its number of logits (the game's action space)
// and of values (1 or the seats), and a maker of evaluators, one per
// goroutine.
type Network struct {
	Obs, Actions, Values int
	NewEvaluator         func() Evaluator
}

// BaselineSearch is the guided search of "baseline+search:N": PUCT with
// mctx's defaults (pb_c_init 1.25, no Dirichlet noise), playing the most
// visited action. PUCT rather than Gumbel because a bot that plays to win
// wants the search's best action, where Gumbel samples its root's actions
// with noise; and 1.25 rather than PlayoutGuided's 5 because the network's
// priors are not uniform, the case AlphaZero tuned it for.
var BaselineSearch = func() GuidedSettings {
	set := DefaultGuided
	set.Algorithm = PUCT
	return set
}()

// stopEvery is how many simulations a baseline search runs between looks
// at its batch's stop flag (an atomic load is cheap, but not free).
const stopEvery = 32

// NetBot plays one network in one game at one table size. Its scratch
// (an evaluator and its buffers) is pooled, as search trees are: one per
// goroutine deciding at once, so that a warm decision allocates nothing.
type NetBot[S any, G Game[S]] struct {
	net     Network
	observe Observer[S]
	guides  *Guides[S, G]
	scratch sync.Pool // *evaluation
}

// evaluation is one goroutine's evaluator and buffers.
type evaluation struct {
	eval           Evaluator
	obs, mask      []uint8
	logits, priors []float32
	values         []float32
}

// NewNetBot is the baseline bot of net, which reads observations as
// observe writes them (the env's, with the options the network was trained
// with); its searches take their trees from guides.
func NewNetBot[S any, G Game[S]](net Network, observe Observer[S], guides *Guides[S, G]) *NetBot[S, G] {
	return &NetBot[S, G]{net: net, observe: observe, guides: guides}
}

// Act is bot's choice for the seat to play in s (not changed), drawing its
// search's seed from r. A searching bot writes its targets where asked.
func (b *NetBot[S, G]) Act(bot Spec, r *rng.Rand, s *S, stop *atomic.Bool, t Targets) (action int) {
	e := b.evaluation()
	defer b.scratch.Put(e)
	if bot.Simulations == 0 {
		return b.argmax(e, s)
	}
	if action, ok := forced[S, G](s, t); ok {
		return action
	}
	return b.search(e, bot, r.Uint64(), s, stop, t)
}

func (b *NetBot[S, G]) evaluation() *evaluation {
	if e, ok := b.scratch.Get().(*evaluation); ok {
		return e
	}
	return &evaluation{eval: b.net.NewEvaluator(), obs: make([]uint8, b.net.Obs), mask: make([]uint8, b.net.Actions),
		logits: make([]float32, b.net.Actions), priors: make([]float32, b.net.Actions), values: make([]float32, b.net.Values)}
}

// argmax is the legal action with the largest logit, the lower index on
// ties (as nets.Evaluator.Argmax).
func (b *NetBot[S, G]) argmax(e *evaluation, s *S) int {
	g := G(s)
	b.observe(e.obs, s, g.ToPlay())
	e.eval.Evaluate(e.obs, e.logits, e.values)
	legal := g.LegalSet()
	best := -1
	for w, word := range legal {
		for ; word != 0; word &= word - 1 {
			a := w*64 + bits.TrailingZeros64(word)
			if best < 0 || e.logits[a] > e.logits[best] {
				best = a
			}
		}
	}
	return best
}

// search runs a guided search of s whose leaves the network evaluates as
// they come (one at a time: no batching to wait for in-process).
func (b *NetBot[S, G]) search(e *evaluation, bot Spec, seed uint64, s *S, stop *atomic.Bool, t Targets) int {
	set := BaselineSearch
	set.Simulations, set.PlayoutWeight = int(bot.Simulations), float64(bot.Playouts)/100
	if bot.Search.Exploration > 0 {
		set.PbCInit = bot.Search.Exploration
	}
	if bot.FirstPlay > 0 {
		set.FirstPlay, set.FPUReduction = true, float64(bot.FirstPlay-1)/100
	}
	temp := 1.0
	if bot.PolicyTemp > 0 {
		temp = float64(bot.PolicyTemp) / 100
	}
	m := b.guides.Start(set, s, seed, stop, b.observe)
	defer m.Release()
	for n := 1; ; n++ {
		switch m.Next(e.obs, e.mask) {
		case Done:
			return m.Result(t)
		case Wait:
			panic("bots: a baseline search waits with no leaf out")
		}
		e.eval.Evaluate(e.obs, e.logits, e.values)
		softmax(e.priors, e.logits, e.mask, temp)
		m.Expand(e.priors, e.values)
		if n%stopEvery == 0 && stop != nil && stop.Load() {
			return m.Result(t) // the batch is closing: nobody reads the answer
		}
	}
}

// forced is the only legal action of s, when a search need not run for it:
// there is one, and no targets are asked for.
func forced[S any, G Game[S]](s *S, t Targets) (int, bool) {
	legal := G(s).LegalSet()
	if t.Asked() || bitset.Len(legal[:]) != 1 {
		return 0, false
	}
	return bitset.Nth(legal[:], 0), true
}

// softmax writes the softmax of logits/temp over the legal actions (mask)
// into priors, zero elsewhere: at temp 1 the policy head's distribution as
// pvnet's masked softmax, but for its sum, which Expand divides by.
func softmax(priors, logits []float32, mask []uint8, temp float64) {
	top := float32(math.Inf(-1))
	for a, legal := range mask {
		if legal == 1 {
			top = max(top, logits[a])
		}
	}
	for a, legal := range mask {
		priors[a] = 0
		if legal == 1 {
			priors[a] = float32(math.Exp(float64(logits[a]-top) / temp))
		}
	}
}
