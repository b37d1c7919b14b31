package env

// Spec describes an environment to its users: everything a client needs to
// allocate buffers and decode actions. It is fixed for an env id and options.
type Spec struct {
	ID       string
	Version  int
	ObsShape []int
	ObsDtype Dtype
	// Layout names the blocks of one seat's observation (a row of ObsShape
	// when it has one per seat).
	Layout       []Block
	NumActions   int
	ActionLabels []string
	Players      int
	Mode         Mode
	Autoreset    Autoreset
	// RewardRange bounds every per-step reward.
	RewardRange [2]float32
	// IllegalAction is what an illegal action in a batch does.
	IllegalAction IllegalPolicy
	// Options are the value every option took, defaults included.
	Options Options
}

// ObsSize is the number of values in one observation.
func (s *Spec) ObsSize() int {
	n := 1
	for _, d := range s.ObsShape {
		n *= d
	}
	return n
}

// Mode says who the client plays.
type Mode string

const (
	SelfPlay Mode = "self_play" // the client acts for whichever seat is to move
	VsBots   Mode = "vs_bots"   // the client owns one seat; built-in bots play the rest
)

// Autoreset says what Vector.Step does when an episode ends (Gymnasium's
// AutoresetMode names).
type Autoreset string

const (
	// NextStep: the step that ends an episode returns its final observation;
	// the next step of that env ignores its action and returns the first
	// observation of a new episode, with zero rewards.
	NextStep Autoreset = "next_step"
	// SameStep: the step that ends an episode resets at once and returns the
	// new episode's first observation; the final one is kept in FinalObs.
	SameStep Autoreset = "same_step"
	// Disabled: an ended env stays ended (its mask is all zeros) until the
	// client resets it.
	Disabled Autoreset = "disabled"
)

// Dtype is how observations travel: the values are small integers either way.
type Dtype string

const (
	Uint8   Dtype = "uint8"
	Float32 Dtype = "float32"
)

// IllegalPolicy says what an illegal action does to a batch.
type IllegalPolicy string

const (
	// IllegalError refuses the whole batch with an *ActionError; nothing
	// changes (the default).
	IllegalError IllegalPolicy = "error"
	// IllegalForfeit ends that env's episode as a loss for the seat that
	// chose it (−1; the others share +1), so that a training loop that
	// ignores masks still runs; the rest of the batch steps normally.
	IllegalForfeit IllegalPolicy = "forfeit"
)
