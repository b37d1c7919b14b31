// Package nets plays small trained networks in pure Go, so that the server can
// ship learned baselines as ordinary built-in bots that every client (the
// viewer included) can play, without Python or a new dependency. A network is
// the policy-value MLP of python_client/splendor_rl/pvnet.py, read from the
// file pvnet.save writes.
//
// The file is safetensors because its layout is plain and documented (an
// 8-byte length, a JSON header of names, shapes and byte ranges, raw
// little-endian data) and so is read and checked in a few lines of Go, where
// torch's own pickle format would need an interpreter and trust in the file.
//
// A Net is read-only once loaded and may be shared by any number of
// goroutines; each goroutine evaluates it with its own Evaluator, which holds
// the scratch buffers that keep evaluation allocation-free.
package nets

// Format is the metadata "format" of the files this package reads
// (pvnet.FORMAT): a file of another format, or of a later version of this one,
// is refused rather than misread.
const Format = "splendor-rl/pv-mlp/1"

// MaxValues bounds a value head: one value per seat of a four-seat table.
const MaxValues = 4

// Net is a loaded policy-value network: a trunk of fully connected layers
// with ReLU over the scaled observation, then a policy head (one logit per
// action) and a value head (tanh): the seat to play's value, or every
// seat's from its view (the seat to play's first, the others in seat order
// after it).
type Net struct {
	// Env is the id of the env the network was trained on, and Options the
	// env options it was made with (decoded JSON: numbers are float64), for
	// the server to check that it plays the net in the env it knows.
	Env     string
	Options map[string]any

	scale []float32 // multiplies the uint8 observation, feature by feature
	trunk []layer
	// head is the policy and value heads as one layer: outputs 0..actions-1
	// are the logits, the last values ones the values before tanh. One pass
	// over the last hidden layer serves both.
	head   layer
	values int
}

// layer is a fully connected layer y = bias + W·x with W stored by columns:
// columns[j*out : (j+1)*out] are the weights from input j. Evaluation adds
// only the columns of nonzero inputs, and those are contiguous.
type layer struct {
	out     int
	columns []float32
	bias    []float32
}

// Obs is the length of the observations the network reads.
func (n *Net) Obs() int { return len(n.scale) }

// Actions is the number of logits the policy head writes.
func (n *Net) Actions() int { return n.head.out - n.values }

// Values is the number of values the value head writes: 1, the seat to
// play's, or one per seat.
func (n *Net) Values() int { return n.values }

// Hidden is the width of every trunk layer.
func (n *Net) Hidden() int { return n.trunk[0].out }

// Layers is the number of trunk layers.
func (n *Net) Layers() int { return len(n.trunk) }
