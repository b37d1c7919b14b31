package wire

import "github.com/vmihailenco/msgpack/v5"

// Batch replies are the frames a training loop gets thousands of times a
// second; the reflective encoder allocates for each (its omitempty
// filtering), so they are written field by field instead, in the order and
// encoding the reflective one uses (the golden frames check it).

// EncodeMsgpack writes r as a map of its fields, leaving out the absent
// same-step ones.
func (r *BatchReply) EncodeMsgpack(e *msgpack.Encoder) error {
	n := 7
	if r.Ended != nil {
		n++
	}
	if r.FinalObs != nil {
		n++
	}
	w := fieldWriter{e: e}
	w.err = e.EncodeMapLen(n)
	w.uint("id", r.ID)
	w.tensor("obs", &r.Obs)
	w.tensor("mask", &r.Mask)
	w.tensor("rewards", &r.Rewards)
	w.tensor("terminated", &r.Terminated)
	w.tensor("truncated", &r.Truncated)
	w.tensor("to_play", &r.ToPlay)
	if r.Ended != nil {
		w.tensor("ended", r.Ended)
	}
	if r.FinalObs != nil {
		w.tensor("final_obs", r.FinalObs)
	}
	return w.err
}

// EncodeMsgpack writes t as {dtype, shape, data}.
func (t *Tensor) EncodeMsgpack(e *msgpack.Encoder) error {
	w := fieldWriter{e: e}
	w.err = e.EncodeMapLen(3)
	w.str("dtype", t.Dtype)
	w.key("shape")
	if w.err == nil {
		w.err = e.EncodeArrayLen(len(t.Shape))
	}
	for _, d := range t.Shape {
		if w.err == nil {
			w.err = e.EncodeInt(int64(d))
		}
	}
	w.key("data")
	if w.err == nil {
		w.err = e.EncodeBytes(t.Data)
	}
	return w.err
}

// fieldWriter writes map entries, keeping the first error.
type fieldWriter struct {
	e   *msgpack.Encoder
	err error
}

func (w *fieldWriter) key(k string) {
	if w.err == nil {
		w.err = w.e.EncodeString(k)
	}
}

func (w *fieldWriter) uint(k string, v uint64) {
	w.key(k)
	if w.err == nil {
		w.err = w.e.EncodeUint(v)
	}
}

func (w *fieldWriter) str(k, v string) {
	w.key(k)
	if w.err == nil {
		w.err = w.e.EncodeString(v)
	}
}

func (w *fieldWriter) tensor(k string, t *Tensor) {
	w.key(k)
	if w.err == nil {
		w.err = t.EncodeMsgpack(w.e)
	}
}
