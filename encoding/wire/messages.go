package wire

import "slices"

// Ops a request may name.
const (
	OpHello = "hello"
	OpMake  = "make"
	OpReset = "reset"
	OpStep  = "step"
	OpClose = "close"
	// Search ops (PROTOCOL.md §3): whole env states, and bots' advice.
	OpGetState    = "get_state"
	OpSetState    = "set_state"
	OpDeterminize = "determinize"
	OpFork        = "fork"
	OpBotActions  = "bot_actions"
	// OpView shows envs' tables to people (PROTOCOL.md §3, view).
	OpView = "view"
	// Guided search (PROTOCOL.md §3, search): the server's tree, the
	// client's evaluations.
	OpSearch   = "search"
	OpEvaluate = "evaluate"
)

// Request is every request: id and op, and the fields its op reads.
type Request struct {
	ID      uint64         `msgpack:"id"`
	Op      string         `msgpack:"op"`
	Token   string         `msgpack:"token,omitempty"`    // hello
	Env     string         `msgpack:"env,omitempty"`      // make
	NumEnvs int            `msgpack:"num_envs,omitempty"` // make
	Options map[string]any `msgpack:"options,omitempty"`  // make
	Seed    *Seed          `msgpack:"seed,omitempty"`     // make
	Handle  uint64         `msgpack:"handle,omitempty"`   // reset, step, close
	Seeds   Seeds          `msgpack:"seeds,omitempty"`    // reset
	EnvIDs  EnvIDs         `msgpack:"env_ids,omitempty"`  // reset and the search ops
	Actions *Tensor        `msgpack:"actions,omitempty"`  // step
	States  []string       `msgpack:"states,omitempty"`   // set_state
	Src     EnvIDs         `msgpack:"src,omitempty"`      // fork
	Dst     EnvIDs         `msgpack:"dst,omitempty"`      // fork
	Bot     string         `msgpack:"bot,omitempty"`      // bot_actions
	Targets bool           `msgpack:"targets,omitempty"`  // bot_actions: with the search's policy and value
	// Settings are a search's (PROTOCOL.md §3, search).
	Settings map[string]any `msgpack:"settings,omitempty"` // search
	Priors   *Tensor        `msgpack:"priors,omitempty"`   // evaluate: [L, actions] float32
	// LegalPriors are the priors of the leaves' legal actions only, leaf
	// after leaf in action order: an evaluate of a packed search.
	LegalPriors *Tensor `msgpack:"legal_priors,omitempty"` // evaluate: [legal] float32
	Values      *Tensor `msgpack:"values,omitempty"`       // evaluate: [L] or [L, players] float32
	// Part is which of a batch's searches a search or evaluate is for
	// (0…MaxSearchParts−1): a client evaluates one's leaves while the
	// server advances another's.
	Part int `msgpack:"part,omitempty"` // search, evaluate
	// Packed asks for a search whose replies carry the leaves' masks as
	// bits (mask_bits) and whose evaluates carry legal_priors.
	Packed bool `msgpack:"packed,omitempty"` // search
	// Seat is whose view a view shows; in reset and step, the seat the reply
	// is for: rows where another seat is to play carry no observation.
	Seat *int `msgpack:"seat,omitempty"` // view, reset, step
}

// Limits are the server's limits, announced by hello.
type Limits struct {
	MaxMessageBytes      int64 `msgpack:"max_message_bytes"`
	MaxEnvsPerConnection int   `msgpack:"max_envs_per_connection"`
	MaxEnvsTotal         int   `msgpack:"max_envs_total"`
	MaxConnections       int   `msgpack:"max_connections"`
	// SearchSlots is how many searches the server runs at once (a core's
	// share each): more searching envs than this wait their turn.
	SearchSlots int `msgpack:"search_slots"`
}

// HelloReply announces versions, limits, env ids, each env's options and
// the baseline networks the server plays.
type HelloReply struct {
	ID         uint64                  `msgpack:"id"`
	Protocol   int                     `msgpack:"protocol"`
	Server     string                  `msgpack:"server"`
	Envs       []string                `msgpack:"envs"`
	Limits     Limits                  `msgpack:"limits"`
	EnvOptions map[string][]OptionSpec `msgpack:"env_options"`
	Baselines  []BaselineSpec          `msgpack:"baselines"`
}

// BaselineSpec is one baseline network: the env and table size it plays,
// and its edition ("" for the bots named plain "baseline").
type BaselineSpec struct {
	Env     string `msgpack:"env"`
	Players int    `msgpack:"players"`
	Edition string `msgpack:"edition"`
}

// OptionSpec describes one option of an env's make.
type OptionSpec struct {
	Name    string `msgpack:"name"`
	Type    string `msgpack:"type"` // "int", "str", or "str or list"
	Default any    `msgpack:"default"`
	// Min and Max bound an "int" option; Length is a list's length (both as
	// for the default values of the options listed before it).
	Min     *int     `msgpack:"min,omitempty"`
	Max     *int     `msgpack:"max,omitempty"`
	Choices []string `msgpack:"choices,omitempty"`
	Length  int      `msgpack:"length,omitempty"`
}

// Spec describes a made batch of envs.
type Spec struct {
	ID       string `msgpack:"id"`
	Version  int    `msgpack:"version"`
	NumEnvs  int    `msgpack:"num_envs"`
	ObsShape []int  `msgpack:"obs_shape"`
	ObsDtype string `msgpack:"obs_dtype"`
	// Layout names the blocks of one seat's observation.
	Layout       []Block  `msgpack:"layout"`
	NumActions   int      `msgpack:"num_actions"`
	ActionLabels []string `msgpack:"action_labels"`
	Players      int      `msgpack:"players"`
	Mode         string   `msgpack:"mode"`
	Autoreset    string   `msgpack:"autoreset"`
	// IllegalAction is "error" (an illegal action refuses the batch) or
	// "forfeit" (it ends that episode as a loss for the seat that chose it).
	IllegalAction string     `msgpack:"illegal_action"`
	RewardRange   [2]float32 `msgpack:"reward_range"`
	// Options are the value every option took, defaults included.
	Options map[string]any `msgpack:"options"`
}

// Block is a named part of one seat's observation: value (i, j, …, f) is at
// offset + i·strides[0] + j·strides[1] + … + f·strides[last]; fields name a
// row's values.
type Block struct {
	Name    string   `msgpack:"name"`
	Offset  int      `msgpack:"offset"`
	Shape   []int    `msgpack:"shape"`
	Strides []int    `msgpack:"strides"`
	Fields  []string `msgpack:"fields"`
}

// MakeReply names the new batch.
type MakeReply struct {
	ID     uint64 `msgpack:"id"`
	Handle uint64 `msgpack:"handle"`
	Spec   Spec   `msgpack:"spec"`
}

// BatchReply answers reset and step: row i of every tensor is env i.
type BatchReply struct {
	ID         uint64 `msgpack:"id"`
	Obs        Tensor `msgpack:"obs"`        // [N, obs…] obs_dtype
	Mask       Tensor `msgpack:"mask"`       // [N, actions] uint8
	Rewards    Tensor `msgpack:"rewards"`    // [N, players] float32
	Terminated Tensor `msgpack:"terminated"` // [N] bool
	Truncated  Tensor `msgpack:"truncated"`  // [N] bool
	ToPlay     Tensor `msgpack:"to_play"`    // [N] int32
	// Same-step autoreset only: which envs ended in this step, and their
	// final observations (rows of other envs are zeros).
	Ended    *Tensor `msgpack:"ended,omitempty"`     // [N] bool
	FinalObs *Tensor `msgpack:"final_obs,omitempty"` // [N, obs…] obs_dtype
}

// SizeHint is about the bytes r encodes to: its tensors' data and a little
// for keys and headers, so that an encoder can size its buffer once.
func (r *BatchReply) SizeHint() int {
	n := len(r.Obs.Data) + len(r.Mask.Data) + len(r.Rewards.Data) + len(r.Terminated.Data) +
		len(r.Truncated.Data) + len(r.ToPlay.Data) + 512
	if r.FinalObs != nil {
		n += len(r.FinalObs.Data) + len(r.Ended.Data)
	}
	return n
}

// StatesReply answers get_state: one state per env asked for, in order.
type StatesReply struct {
	ID     uint64   `msgpack:"id"`
	States []string `msgpack:"states"`
}

// ActionsReply answers bot_actions: one action per env asked for, in
// order (−1 for an env whose episode is over), and with targets an mcts
// bot's search targets.
type ActionsReply struct {
	ID      uint64  `msgpack:"id"`
	Actions Tensor  `msgpack:"actions"`          // [K] int32
	Policy  *Tensor `msgpack:"policy,omitempty"` // [K, actions] float32: the root's visit distribution
	Value   *Tensor `msgpack:"value,omitempty"`  // [K] float32: the position's value to the seat to play
	Values  *Tensor `msgpack:"values,omitempty"` // [K, players] float32: every seat's, the seat to play's first
}

// SearchReply answers search and evaluate: the leaves to evaluate next,
// or once done (no leaf left) each env's result.
type SearchReply struct {
	ID       uint64  `msgpack:"id"`
	Done     bool    `msgpack:"done"`
	LeafEnvs Tensor  `msgpack:"leaf_envs"`           // [L] int32: the env of each leaf
	Obs      Tensor  `msgpack:"obs"`                 // [L, obs] obs_dtype: the leaf's seat to play's observation
	Mask     *Tensor `msgpack:"mask,omitempty"`      // [L, actions] uint8, unless packed
	MaskBits *Tensor `msgpack:"mask_bits,omitempty"` // packed: [L, ⌈actions/8⌉] uint8, action a bit a%8 of byte a/8
	// Done only, row k for the k-th env searched.
	Policy *Tensor `msgpack:"policy,omitempty"` // [K, actions] float32: the improved policy
	Value  *Tensor `msgpack:"value,omitempty"`  // [K] float32: the root's value for its seat to play
	Values *Tensor `msgpack:"values,omitempty"` // [K, players] float32: every seat's, the seat to play's first
	Action *Tensor `msgpack:"action,omitempty"` // [K] int32: the action chosen (−1: the episode is over)
}

// ViewsReply answers view: one view and one text board per env asked for,
// in order. A view is a game's state view (docs/trace.md), an env-layer
// value encoded by its JSON field names (NewCodec).
type ViewsReply struct {
	ID     uint64   `msgpack:"id"`
	Views  []any    `msgpack:"views"`
	Boards []string `msgpack:"boards"`
}

// CloseReply confirms a batch is gone.
type CloseReply struct {
	ID     uint64 `msgpack:"id"`
	Closed bool   `msgpack:"closed"`
}

// ErrorReply is the reply of any failed request.
type ErrorReply struct {
	ID    uint64 `msgpack:"id"`
	Error Error  `msgpack:"error"`
}

// opFields names, per op, the fields it reads besides id and op.
var opFields = map[string][]string{
	OpHello: {"token"},
	OpMake:  {"env", "num_envs", "options", "seed"},
	OpReset: {"handle", "seeds", "env_ids", "seat"},
	OpStep:  {"handle", "actions", "seat"},
	OpClose: {"handle"},

	OpGetState:    {"handle", "env_ids"},
	OpSetState:    {"handle", "env_ids", "states"},
	OpDeterminize: {"handle", "env_ids", "seeds"},
	OpFork:        {"handle", "src", "dst"},
	OpBotActions:  {"handle", "env_ids", "bot", "seed", "seeds", "targets"},
	OpView:        {"handle", "env_ids", "seat"},
	OpSearch:      {"handle", "env_ids", "seed", "seeds", "settings", "part", "packed"},
	OpEvaluate:    {"handle", "priors", "legal_priors", "values", "part"},
}

// checkFields refuses a field the request's op does not read (reset with
// "seed" instead of "seeds", say): ignoring it would silently change an
// experiment. Unknown ops are left to the server, which names them.
func (r *Request) checkFields() *Error {
	allowed, known := opFields[r.Op]
	if !known {
		return nil
	}
	for _, f := range r.setFields() {
		if !slices.Contains(allowed, f) {
			return Errorf(CodeBadRequest, "%s does not take %q (it takes %v)", r.Op, f, allowed)
		}
	}
	return nil
}

// setFields lists the optional fields that are present.
func (r *Request) setFields() []string {
	var set []string
	add := func(name string, present bool) {
		if present {
			set = append(set, name)
		}
	}
	add("token", r.Token != "")
	add("env", r.Env != "")
	add("num_envs", r.NumEnvs != 0)
	add("options", r.Options != nil)
	add("seed", r.Seed != nil)
	add("handle", r.Handle != 0)
	add("seeds", r.Seeds != nil)
	add("env_ids", r.EnvIDs != nil)
	add("actions", r.Actions != nil)
	add("states", r.States != nil)
	add("src", r.Src != nil)
	add("dst", r.Dst != nil)
	add("bot", r.Bot != "")
	add("targets", r.Targets)
	add("settings", r.Settings != nil)
	add("priors", r.Priors != nil)
	add("values", r.Values != nil)
	add("seat", r.Seat != nil)
	add("part", r.Part != 0)
	add("legal_priors", r.LegalPriors != nil)
	add("packed", r.Packed)
	return set
}
