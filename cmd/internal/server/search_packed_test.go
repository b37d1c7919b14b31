package server

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/splendor-rl/splendor/encoding/wire"
)

// unpackBits is a packed reply's mask bits of leaves rows as a mask
// tensor's bytes: action a of a row is bit a%8 of the row's byte a/8.
func unpackBits(bits []uint8, leaves, actions int) []uint8 {
	width := (actions + 7) / 8
	mask := make([]uint8, 0, leaves*actions)
	for j := range leaves {
		for a := range actions {
			mask = append(mask, bits[j*width+a/8]>>(a%8)&1)
		}
	}
	return mask
}

// A packed search is the same search: its replies' mask bits are the masks
// an unpacked search's replies carry, and the priors of the legal actions
// alone lead to the same results as whole rows. An evaluate of a packed
// search with priors, with both fields or with a legal_priors of another
// length is refused, and the search waits on.
func TestPackedSearchIsTheSameSearch(t *testing.T) {
	_, url := start(t, testConfig())
	c := dial(t, url)
	made, _ := makeBatch(t, c, 5, nil)
	na := made.Spec.NumActions
	// Evaluations that each leaf's observation and mask decide.
	evaluation := func(obs, mask []uint8, width int) (priors, values []float32) {
		l := len(obs) / width
		priors, values = make([]float32, l*na), make([]float32, l)
		for j := range values {
			sum := 0
			for _, x := range obs[j*width : (j+1)*width] {
				sum = sum*31 + int(x)
			}
			for a := range na {
				priors[j*na+a] = float32(mask[j*na+a]) * float32(1+(sum+a)&7)
			}
			values[j] = float32(sum&7)/8 - 0.4
		}
		return priors, values
	}
	settings := map[string]any{"simulations": 8}
	var whole wire.SearchReply
	var masks [][]uint8
	require.NoError(t, c.Call(wire.Request{Op: wire.OpSearch, Handle: made.Handle, Seed: seed(2), Settings: settings}, &whole))
	for !whole.Done {
		require.Nil(t, whole.MaskBits)
		masks = append(masks, slices.Clone(whole.Mask.Data))
		priors, values := evaluation(whole.Obs.Data, whole.Mask.Data, whole.Obs.Shape[1])
		l := len(values)
		require.NoError(t, c.Call(wire.Request{Op: wire.OpEvaluate, Handle: made.Handle,
			Priors: ptrTo(wire.Float32Tensor(priors, l, na)), Values: ptrTo(wire.Float32Tensor(values, l))}, &whole))
	}

	var packed wire.SearchReply
	require.NoError(t, c.Call(wire.Request{Op: wire.OpSearch, Handle: made.Handle, Seed: seed(2), Settings: settings, Packed: true}, &packed))
	for round := 0; !packed.Done; round++ {
		require.Nil(t, packed.Mask)
		require.Equal(t, []int{packed.LeafEnvs.Shape[0], (na + 7) / 8}, packed.MaskBits.Shape)
		mask := unpackBits(packed.MaskBits.Data, packed.LeafEnvs.Shape[0], na)
		require.Equal(t, masks[round], mask, "round %d", round)
		priors, values := evaluation(packed.Obs.Data, mask, packed.Obs.Shape[1])
		var legal []float32
		for i, m := range mask {
			if m == 1 {
				legal = append(legal, priors[i])
			}
		}
		l, vals := len(values), ptrTo(wire.Float32Tensor(values, len(values)))
		refused := []wire.Request{
			{Priors: ptrTo(wire.Float32Tensor(priors, l, na)), Values: vals},
			{Priors: ptrTo(wire.Float32Tensor(priors, l, na)), LegalPriors: ptrTo(wire.Float32Tensor(legal, len(legal))), Values: vals},
			{LegalPriors: ptrTo(wire.Float32Tensor(legal[1:], len(legal)-1)), Values: vals},
		}
		for k, code := range []wire.Code{wire.CodeBadRequest, wire.CodeBadRequest, wire.CodeBadShape} {
			req := refused[k]
			req.Op, req.Handle = wire.OpEvaluate, made.Handle
			requireCode(t, c.Call(req, &wire.SearchReply{}), code)
		}
		require.NoError(t, c.Call(wire.Request{Op: wire.OpEvaluate, Handle: made.Handle,
			LegalPriors: ptrTo(wire.Float32Tensor(legal, len(legal))), Values: vals}, &packed))
	}
	require.Equal(t, whole.Action.Data, packed.Action.Data)
	require.Equal(t, whole.Policy.Data, packed.Policy.Data)
	require.Equal(t, whole.Value.Data, packed.Value.Data)
}

// A packed search's evaluate is sized by its leaves' legal actions: one
// that would pass max_message_bytes ends the search, limit_exceeded, with
// its memory given back, where an unpacked search of whole rows is refused
// before it starts.
func TestPackedSearchEndsWhenItsEvaluateWouldNotFit(t *testing.T) {
	cfg := testConfig()
	cfg.MaxMessageBytes = 4096 + 4*(5+20) // 5 leaves with 20 legal actions in all: fewer than the opening's
	srv, url := start(t, cfg)
	c := dial(t, url)
	made, _ := makeBatch(t, c, 5, nil)
	var r wire.SearchReply
	requireCode(t, c.Call(wire.Request{Op: wire.OpSearch, Handle: made.Handle, Seed: seed(2)}, &r), wire.CodeLimit)
	werr := requireCode(t, c.Call(wire.Request{Op: wire.OpSearch, Handle: made.Handle, Seed: seed(2), Packed: true}, &r), wire.CodeLimit)
	require.Contains(t, werr.Message, "the search ended")
	require.Zero(t, srv.searchMemory.used.Load(), "the ended search holds nothing")
	requireCode(t, c.Call(wire.Request{Op: wire.OpEvaluate, Handle: made.Handle,
		LegalPriors: ptrTo(wire.Float32Tensor(nil, 0)), Values: ptrTo(wire.Float32Tensor(nil, 0))}, &r), wire.CodeBadRequest)
}
