package bots

// Algorithm is a guided search's selection rule.
type Algorithm uint8

const (
	Gumbel Algorithm = iota // Gumbel MuZero: sequential halving at the root (good with few simulations)
	PUCT                    // AlphaZero
)

// GuidedSettings tune a guided search; the names are mctx's.
type GuidedSettings struct {
	Algorithm   Algorithm
	Simulations int // num_simulations: leaves evaluated (or games over reached) after the root's evaluation
	// LeavesPerEnv is how many leaves one search may have out at once:
	// more than one steers later descents away from the pending ones by a
	// virtual loss (the pending path counts a visit and a loss).
	LeavesPerEnv int
	// Playouts makes the search evaluate its own leaves: uniform priors
	// over the legal actions and the value of a greedy playout.
	Playouts bool
	// PlayoutWeight mixes a greedy playout's outcome into the value of
	// every leaf someone else evaluates, weighing it PlayoutWeight and the
	// evaluation 1 − PlayoutWeight (AlphaGo's λ); 0: none.
	PlayoutWeight float64

	// PUCT: pb_c_init, pb_c_base, and Dirichlet noise mixed into the
	// root's priors (dirichlet_fraction 0: none).
	PbCInit, PbCBase                  float64
	DirichletAlpha, DirichletFraction float64
	// FirstPlay (PUCT) values an unvisited kid at its parent's value less
	// FPUReduction·√(its visited siblings' share of the priors), as Leela
	// Zero's and KataGo's first-play urgency, floored at the visited kids'
	// minimum; off, it is that minimum (mctx's rule).
	FirstPlay    bool
	FPUReduction float64

	// Gumbel: max_num_considered_actions, gumbel_scale (0: none, the
	// root's best actions by prior), and σ's maxvisit_init (c_visit) and
	// value_scale (c_scale).
	MaxNumConsideredActions  int
	GumbelScale              float64
	MaxvisitInit, ValueScale float64
}

// Cost is what one search of set counts against max_search_iterations.
func (set GuidedSettings) Cost() int { return searchCost(set.Simulations, set.PlayoutWeight > 0) }

// searchCost is what a guided search of sims simulations counts: a
// simulation evaluated by a small network costs about what an mcts
// iteration's greedy playout does, so one that plays its leaf out as well
// counts twice.
func searchCost(sims int, playsOut bool) int {
	if playsOut {
		return 2 * sims
	}
	return sims
}

// DefaultGuided are the settings a search starts from: mctx's defaults,
// except value_scale 1 (the paper's c_scale; mctx's is 0.1) and no
// Dirichlet noise unless asked for.
var DefaultGuided = GuidedSettings{Algorithm: Gumbel, Simulations: 64, LeavesPerEnv: 1,
	PbCInit: 1.25, PbCBase: 19652, DirichletAlpha: 0.3, DirichletFraction: 0,
	MaxNumConsideredActions: 16, GumbelScale: 1, MaxvisitInit: 50, ValueScale: 1}

// PlayoutGuided are the settings of a search that evaluates its own leaves
// (Playouts): DefaultGuided but pb_c_init 5. Uniform priors spread PUCT's
// prior term over every legal action (P = 1/L, L ≈ 20–60), so 1.25 tries
// few of the root's actions; against mcts:1000, puct:1000 finished ahead
// in 28 % of 200 games with 1.25, 48 % with 3, 54 % with 5, 51 % with 8,
// 44 % with 20 (docs/bots.md).
var PlayoutGuided = func() GuidedSettings {
	set := DefaultGuided
	set.Playouts, set.PbCInit = true, 5
	return set
}()

// MaxSimulations bounds a guided search (AlphaZero searched 800, Gumbel
// MuZero far fewer): its tree grows by a node per legal action of each leaf
// (GuidedBytes), far faster than mcts's one node an iteration. 32,768 lets a
// baseline search think for about the half second a human opponent would
// wait (docs/bots.md); a search slot budgets its tree (GuidedBytes: 561 MiB
// at most, docs/server.md).
const MaxSimulations = 32768
