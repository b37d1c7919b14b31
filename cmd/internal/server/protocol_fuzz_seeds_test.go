package server

import (
	"slices"
	"strconv"
	"strings"

	"github.com/splendor-rl/splendor/encoding/wire"
)

// The fuzzer's seed corpus: short scripts that between them send every op,
// both games, search rounds to their end, and the two searches that once
// broke (env_ids: [], and playouts with two leaves per env). A record's
// parameter bytes are the choices its generator draws, in order; 0 is the
// first valid alternative (protocol_fuzz_draw_test.go).
func (h *fuzzHarness) protocolSeeds() [][]byte {
	splendor, duel := 0, 1
	return [][]byte{
		script(h.makeRecord(splendor, 2), rec(opReset), rec(opStep), rec(opStep, 0, 3), rec(opGetState),
			rec(opSetState), rec(opDeterminize), rec(opFork), rec(opBotActions, 0, 0, 1),
			rec(opBotActions, 0, 0, 2, 2), rec(opView), rec(opView, 0, 0, 1), rec(opHello), rec(opClose), rec(opHello)),
		script(h.makeRecord(duel, 2, "obs_dtype=float32", "obs_seats=all", "autoreset=same_step"), rec(opReset),
			rec(opStep), rec(opStep), rec(opSearch), rec(opEvaluate), rec(opSearchToDone), rec(opBotActions, 0, 0, 5, 2)),
		// puct, 8 simulations, two leaves per env, answered to the end.
		script(h.makeRecord(splendor, 3, "players=3"), rec(opReset), rec(opSearch, 0, 0, 0, 0, 7, 2, 2),
			rec(opSearchToDone)),
		// A search refused while another waits, which is then answered.
		script(h.makeRecord(splendor, 2), rec(opReset), rec(opSearch, 0, 0, 0, 0, 7), rec(opSearch, 0, hostileByte),
			rec(opEvaluate)),
		// A search of no envs.
		script(h.makeRecord(splendor, 2), rec(opReset), rec(opSearch, 0, 5, 0, 0, 3)),
		// Playouts with two leaves per env: gumbel and 8 simulations, puct and 1.
		script(h.makeRecord(duel, 2), rec(opReset), rec(opSearch, 0, 0, 0, 0, 7, 0, 2, 1)),
		script(h.makeRecord(splendor, 4), rec(opReset), rec(opSearch, 0, 0, 0, 0, 0, 2, 2, 1)),
		script(h.makeRecord(splendor, 4, "players=4", "mode=vs_bots", "max_rounds=5"), rec(opReset), rec(opStep),
			rec(opStep), rec(opBotActions, 0, 0, 2, 2), rec(opSearchToDone), rec(opView, 0, 0, 2)),
		// Pipelined steps, a close behind a search and behind bots' advice.
		script(h.makeRecord(splendor, 2), rec(opReset), rec(pipelined|opStep), rec(pipelined|opStep), rec(opStep),
			rec(opSearchThenClose), h.makeRecord(duel, 1), rec(opReset), rec(opSearchThenClose, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)),
		// Frames and fields the protocol refuses.
		script(h.makeRecord(splendor, 2), rec(opReset), rec(opFrame, 0, 200), rec(opFrame, 1), rec(opFrame, 2),
			rec(opFrame, 3), rec(opFrame, 5), rec(opFrame, 6), rec(opFrame, 7), rec(opFrame, 8), rec(opFrame, 9),
			rec(opFrame, 10), rec(opEvaluate), rec(opStep, 0, 0, hostileByte+3), rec(opSearch, 0, hostileByte+1),
			rec(opStep)),
		// Short episodes that wait for their reset, and forfeits.
		script(h.makeRecord(duel, 3, "autoreset=disabled", "max_rounds=1", "illegal_action=forfeit"), rec(opReset),
			rec(opStep), rec(opStep), rec(opStep, 0, 0, 3), rec(opStep), rec(opBotActions), rec(opReset, 0, 3, 1)),
	}
}

// rec is one record: an op and its first parameter bytes (the rest 0).
func rec(op int, params ...byte) []byte {
	r := make([]byte, recordBytes)
	r[0] = byte(op)
	copy(r[1:], params)
	return r
}

func script(records ...[]byte) []byte { return slices.Concat(records...) }

// makeRecord is a make of n envs of game with options "name=value", each a
// choice of a str option, a value of an int option, or a max_rounds of
// optionValue's list.
func (h *fuzzHarness) makeRecord(game, n int, options ...string) []byte {
	specs := h.options[fuzzEnvs[game]]
	params := []byte{byte(game), byte(n - 1), 0, byte(len(options))}
	values := map[int]byte{}
	for _, o := range options {
		name, value, _ := strings.Cut(o, "=")
		i := slices.IndexFunc(specs, func(s wire.OptionSpec) bool { return s.Name == name })
		params = append(params, byte(i))
		values[i] = valueIndex(specs[i], value)
	}
	for i := range specs {
		if v, ok := values[i]; ok {
			params = append(params, v)
		}
	}
	return rec(opMake, params...)
}

// valueIndex is the choice byte of an option's value.
func valueIndex(spec wire.OptionSpec, value string) byte {
	if spec.Type == "str" {
		return byte(slices.Index(spec.Choices, value))
	}
	n, _ := strconv.Atoi(value)
	if spec.Name == "max_rounds" {
		return byte(slices.Index(fuzzMaxRounds, n))
	}
	return byte(n - *spec.Min)
}
