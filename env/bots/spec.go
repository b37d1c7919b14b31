package bots

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Kind is how a bot chooses.
type Kind uint8

const (
	Random       Kind = iota // uniformly among the legal actions
	Greedy                   // the game's one-ply heuristic
	MCTS                     // information-set Monte Carlo tree search
	Baseline                 // a shipped network: its argmax, or a guided search it evaluates (baseline.go)
	GuidedGumbel             // a guided search with Gumbel selection evaluating its own leaves by playouts (PlayoutGuided)
	GuidedPUCT               // the same with PUCT selection
)

// Names are the bots' names, in Kind order.
var Names = []string{"random", "greedy", "mcts", "baseline", "gumbel", "puct"}

// A baseline bot's name: "baseline", or a named edition of the network
// ("baseline@2026-11-26"), then "+search:N" when it searches.
const (
	baselineName = "baseline"
	searchSuffix = "+search:"
)

func (k Kind) String() string { return Names[k] }

// Settings tune the search.
type Settings struct {
	Iterations  int     // playouts per decision
	Exploration float64 // UCB's constant c: higher tries more actions
	Rollout     Kind    // Random or Greedy: who plays the playouts to the end
}

// DefaultSettings are "mcts" alone.
var DefaultSettings = Settings{Iterations: 1000, Exploration: 0.7, Rollout: Greedy}

// MaxIterations bounds a search, and so its tree: see TreeBytes.
const MaxIterations = 20_000

// Spec is a bot as its name describes it.
type Spec struct {
	Kind Kind
	// Edition is a Baseline's network: 0 the default one ("baseline"), k a
	// named edition, Editions()[k-1] ("baseline@NAME"). A byte beside Kind
	// keeps the Spec as small as before.
	Edition uint8
	// Playouts is the weight, in hundredths, of a greedy playout's outcome
	// in the value of each leaf of a Baseline's search (",playouts=0.5"):
	// GuidedSettings.PlayoutWeight.
	Playouts uint8
	// FirstPlay is a Baseline's search's first-play urgency (",fpu=R"): 0
	// none (mctx's rule), else 1 + R in hundredths
	// (GuidedSettings.FPUReduction).
	FirstPlay uint8
	// PolicyTemp is the temperature of the softmax that turns a Baseline's
	// search's logits into priors (",policy_temp=T"), in hundredths: 0 is
	// 1, the network's own priors.
	PolicyTemp uint8
	// Simulations is a Baseline's search: 0 plays the network's argmax,
	// N > 0 a guided search of N simulations (baseline+search:N); and a
	// GuidedGumbel's or GuidedPUCT's, always N > 0.
	Simulations int32
	// Search is an MCTS's settings; a Baseline's search takes its
	// Exploration, when set, as PUCT's pb_c_init (",exploration=2"; 0:
	// BaselineSearch's).
	Search Settings
}

// Searches reports whether the bot searches, and so runs in a search slot
// and counts against the search budgets.
func (s Spec) Searches() bool { return s.Kind == MCTS || s.Simulations > 0 }

// Cost is the iterations, or simulations, of one decision: what
// max_search_iterations counts (GuidedSettings.Cost).
func (s Spec) Cost() int {
	if s.Kind == MCTS {
		return s.Search.Iterations
	}
	return searchCost(int(s.Simulations), s.Playouts > 0)
}

// Guided is the search of a GuidedGumbel or GuidedPUCT bot: PlayoutGuided
// with its selection and simulations; ok is false for another bot.
func (s Spec) Guided() (set GuidedSettings, ok bool) {
	set = PlayoutGuided
	switch s.Kind {
	case GuidedGumbel:
	case GuidedPUCT:
		set.Algorithm = PUCT
	default:
		return set, false
	}
	set.Simulations = int(s.Simulations)
	return set, true
}

// ErrBadBot reports a name that is not a bot.
var ErrBadBot = errors.New("bad bot")

// Parse reads a bot's name: "random", "greedy", "mcts", "mcts:800" (that
// many iterations), "mcts:iterations=800,exploration=0.7,rollout=random"
// (any of the three settings, in any order), "baseline",
// "baseline+search:64" (that many simulations; "baseline+search:64,playouts=0.5"
// weighing greedy playouts into its leaves' values, ",exploration=2" setting
// its PUCT's pb_c_init, ",fpu=0" its first-play urgency, ",policy_temp=1.4"
// its priors' temperature), "gumbel" or "puct"
// (PlayoutGuided's simulations) and "gumbel:1000" or "puct:1000" (that
// many). Whether a game has a baseline network is for its env to say.
func Parse(name string) (Spec, error) {
	if strings.HasPrefix(name, baselineName+"@") || strings.HasPrefix(name, baselineName+searchSuffix) {
		return parseBaseline(name)
	}
	kindName, settings, hasSettings := strings.Cut(name, ":")
	for k, n := range Names {
		if n != kindName {
			continue
		}
		spec := Spec{Kind: Kind(k)}
		switch spec.Kind {
		case GuidedGumbel, GuidedPUCT:
			return guidedSpec(spec, name, settings, hasSettings)
		case MCTS:
		default:
			if hasSettings {
				return Spec{}, fmt.Errorf("%w: %q: only mcts, gumbel and puct take settings", ErrBadBot, name)
			}
			return spec, nil
		}
		spec.Search = DefaultSettings
		if !hasSettings {
			return spec, nil
		}
		err := spec.Search.parse(settings)
		if err != nil {
			err = fmt.Errorf("%w: %q: %v", ErrBadBot, name, err)
		}
		return spec, err
	}
	return Spec{}, fmt.Errorf("%w: %q (known: %s, with mcts taking settings as in \"mcts:800\" or "+
		"\"mcts:iterations=800,exploration=0.7,rollout=random\", gumbel and puct simulations as in \"gumbel:1000\", "+
		"and baseline searching as in \"baseline+search:64\" (weighing in playouts, exploring more, with first-play "+
		"urgency, with flatter priors: \"baseline+search:64,playouts=0.5,exploration=2,fpu=0,policy_temp=1.4\") or playing "+
		"a named edition as in \"baseline@NAME\")",
		ErrBadBot, name, strings.Join(Names, ", "))
}

// parseBaseline reads "baseline[@NAME][+search:N[,SETTING=VALUE…]]" (as
// parseSearch) but plain "baseline".
func parseBaseline(name string) (Spec, error) {
	spec := Spec{Kind: Baseline}
	net, search, searches := strings.Cut(name, searchSuffix)
	if searches {
		if err := spec.parseSearch(name, search); err != nil {
			return Spec{}, err
		}
	}
	if edition, ok := strings.CutPrefix(net, baselineName+"@"); ok {
		k, known := editionOf(edition)
		if !known {
			return Spec{}, fmt.Errorf("%w: %q: no baseline edition %q (loaded: %v)", ErrBadBot, name, edition, Editions())
		}
		spec.Edition = k
	} else if net != baselineName {
		return Spec{}, fmt.Errorf("%w: %q: want baseline[@NAME][+search:N]", ErrBadBot, name)
	}
	return spec, nil
}

// searchSettings are the settings a baseline search takes after its N, each
// at most once, in any order.
var searchSettings = []string{"playouts", "exploration", "fpu", "policy_temp"}

// parseSearch reads a baseline search's
// "N[,playouts=W][,exploration=C][,fpu=R][,policy_temp=T]".
func (s *Spec) parseSearch(name, text string) error {
	const want = "baseline[@NAME]+search:N[,playouts=W][,exploration=C][,fpu=R][,policy_temp=T]"
	fields := strings.Split(text, ",")
	var err error
	if s.Simulations, err = simulations(name, fields[0], want); err != nil {
		return err
	}
	seen := make([]bool, len(searchSettings))
	for _, field := range fields[1:] {
		key, value, _ := strings.Cut(field, "=")
		k := slices.Index(searchSettings, key)
		if k < 0 || seen[k] {
			return fmt.Errorf("%w: %q: want %s, each setting once", ErrBadBot, name, want)
		}
		seen[k] = true
		switch key {
		case "playouts":
			s.Playouts, err = playoutWeight(name, value, want)
		case "exploration":
			s.Search.Exploration, err = exploration(name, value, want)
		case "fpu":
			s.FirstPlay, err = firstPlay(name, value, want)
		case "policy_temp":
			s.PolicyTemp, err = policyTemp(name, value, want)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// exploration reads a baseline search's PUCT pb_c_init from text: a number
// in (0, 100].
func exploration(name, text, want string) (float64, error) {
	c, err := strconv.ParseFloat(text, 64)
	if err != nil || !(c > 0 && c <= 100) {
		return 0, fmt.Errorf("%w: %q: want %s, C the search's exploration (PUCT's pb_c_init, %g by default) in "+
			"(0, 100]", ErrBadBot, name, want, BaselineSearch.PbCInit)
	}
	return c, nil
}

// guidedSpec completes the Spec of a gumbel or puct bot, alone or with its
// simulations ("gumbel:1000").
func guidedSpec(spec Spec, name, text string, hasSimulations bool) (Spec, error) {
	spec.Simulations = int32(PlayoutGuided.Simulations)
	if !hasSimulations {
		return spec, nil
	}
	var err error
	spec.Simulations, err = simulations(name, text, spec.Kind.String()+":N")
	return spec, err
}

// simulations reads the simulations of a bot's name from text, refusing
// what is not a number in [1, MaxSimulations] as not a name of the form
// want.
func simulations(name, text, want string) (int32, error) {
	n, err := strconv.Atoi(text)
	if err != nil || n < 1 || n > MaxSimulations {
		return 0, fmt.Errorf("%w: %q: want %s, N simulations in [1, %d]", ErrBadBot, name, want, MaxSimulations)
	}
	return int32(n), nil
}

// playoutWeight reads a baseline search's playout weight from text: a
// number in [0, 1] in hundredths ("0.5", "0.25"), as hundredths.
func playoutWeight(name, text, want string) (uint8, error) {
	return hundredths(name, text, want, "W a playout's weight", 1)
}

// firstPlay reads a baseline search's first-play reduction from text: a
// number in [0, 2] in hundredths, as 1 + its hundredths (Spec.FirstPlay).
func firstPlay(name, text, want string) (uint8, error) {
	r, err := hundredths(name, text, want, "R the first-play urgency's reduction", 2)
	return r + 1, err
}

// policyTemp reads a baseline search's priors' temperature from text: a
// number in (0, 2.5] in hundredths, as hundredths (Spec.PolicyTemp).
func policyTemp(name, text, want string) (uint8, error) {
	t, err := hundredths(name, text, want, "T", 2.5)
	if err != nil || t == 0 {
		return 0, fmt.Errorf("%w: %q: want %s, T the priors' temperature in (0, 2.5] in hundredths (1.4, 0.8)",
			ErrBadBot, name, want)
	}
	return t, nil
}

// hundredths reads what (a number in [0, top] in hundredths) from text, as
// hundredths, refusing anything else as not a name of the form want.
func hundredths(name, text, want, what string, top float64) (uint8, error) {
	x, err := strconv.ParseFloat(text, 64)
	h := math.Round(x * 100)
	if err != nil || !(x >= 0 && x <= top) || math.Abs(x*100-h) > 1e-9 {
		return 0, fmt.Errorf("%w: %q: want %s, %s in [0, %g] in hundredths (0.5, 0.25)", ErrBadBot, name, want,
			what, top)
	}
	return uint8(h), nil
}

func (s *Settings) parse(text string) error {
	if n, err := strconv.Atoi(text); err == nil {
		return s.setIterations(n)
	}
	for _, field := range strings.Split(text, ",") {
		key, value, _ := strings.Cut(field, "=")
		if err := s.set(key, value); err != nil {
			return err
		}
	}
	return nil
}

func (s *Settings) set(key, value string) error {
	switch key {
	case "iterations":
		n, err := strconv.Atoi(value)
		if err != nil {
			return fmt.Errorf("iterations: want an integer, got %q", value)
		}
		return s.setIterations(n)
	case "exploration":
		c, err := strconv.ParseFloat(value, 64)
		if err != nil || !(c >= 0 && c <= 100) {
			return fmt.Errorf("exploration: want a number in [0, 100], got %q", value)
		}
		s.Exploration = c
	case "rollout":
		switch value {
		case "random":
			s.Rollout = Random
		case "greedy":
			s.Rollout = Greedy
		default:
			return fmt.Errorf("rollout: want random or greedy, got %q", value)
		}
	default:
		return fmt.Errorf("unknown setting %q (known: iterations, exploration, rollout)", key)
	}
	return nil
}

func (s *Settings) setIterations(n int) error {
	if n < 1 || n > MaxIterations {
		return fmt.Errorf("iterations: want an integer in [1, %d], got %d", MaxIterations, n)
	}
	s.Iterations = n
	return nil
}
