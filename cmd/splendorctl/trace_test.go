package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/splendor-rl/splendor/env/splendor"
	"github.com/splendor-rl/splendor/env/splendorenv"
	tv "github.com/splendor-rl/splendor/env/tableview"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// tracedGame is one game of a trace: its decisions and its result.
type tracedGame struct {
	decisions []decisionLine[splendorenv.StateView]
	result    resultLine
}

// traceArgs are the traces most tests read: every player count, two games
// each so that the second game's seeding is covered too, and both payment
// rules.
var traceArgs = [][]string{
	{"--players", "2", "--seed", "5", "--games", "2"},
	{"--players", "3", "--seed", "40", "--games", "2"},
	{"--players", "4", "--seed", "700", "--games", "2"},
	{"--players", "2", "--seed", "3", "--games", "2", "--payment", "choose"},
}

func runTrace(t *testing.T, args ...string) string {
	t.Helper()
	var out bytes.Buffer
	require.NoError(t, run(append([]string{"trace"}, args...), &out))
	return out.String()
}

// traceLines splits a trace into its lines, requiring JSON Lines: every line
// one JSON value, newline-terminated, no blank lines.
func traceLines(t *testing.T, out string) []string {
	t.Helper()
	require.True(t, strings.HasSuffix(out, "\n"), "the trace does not end with a newline")
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	for i, line := range lines {
		require.True(t, json.Valid([]byte(line)), "line %d is not one JSON value: %.200s", i+1, line)
	}
	return lines
}

// decodeTrace reads a trace as games: decision lines, each game closed by its
// result line.
func decodeTrace(t *testing.T, out string) []tracedGame {
	t.Helper()
	var games []tracedGame
	var game tracedGame
	for i, line := range traceLines(t, out) {
		var head struct {
			Type string `json:"type"`
		}
		require.NoError(t, json.Unmarshal([]byte(line), &head))
		switch head.Type {
		case "decision":
			var d decisionLine[splendorenv.StateView]
			require.NoError(t, json.Unmarshal([]byte(line), &d))
			game.decisions = append(game.decisions, d)
		case "result":
			require.NoError(t, json.Unmarshal([]byte(line), &game.result))
			games = append(games, game)
			game = tracedGame{}
		default:
			t.Fatalf("line %d has type %q", i+1, head.Type)
		}
	}
	require.Empty(t, game.decisions, "decisions after the last result line")
	return games
}

// eachTracedGame runs check on every game of the traces of traceArgs.
func eachTracedGame(t *testing.T, check func(t *testing.T, g tracedGame)) {
	for _, args := range traceArgs {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			games := decodeTrace(t, runTrace(t, args...))
			require.Len(t, games, 2)
			for _, g := range games {
				require.NotEmpty(t, g.decisions)
				check(t, g)
			}
		})
	}
}

func mustParse(t *testing.T, notation string) splendor.State {
	t.Helper()
	s, err := splendor.Parse(notation)
	require.NoError(t, err, notation)
	return s
}

func TestTraceNumbersGamesAndDecisions(t *testing.T) {
	games := decodeTrace(t, runTrace(t, "--players", "3", "--seed", "9", "--games", "3"))
	require.Len(t, games, 3)
	for k, g := range games {
		for n, d := range g.decisions {
			require.Equal(t, k, d.Game)
			require.Equal(t, uint64(9+k), d.Seed)
			require.Equal(t, n, d.Decision)
		}
		assert.Equal(t, k, g.result.Game)
		assert.Equal(t, uint64(9+k), g.result.Seed)
		assert.Equal(t, len(g.decisions), g.result.Decisions)
	}
}

// The traces are compared with == rather than assert.Equal, whose message
// would print them whole.
func TestTraceIsDeterministic(t *testing.T) {
	args := []string{"--players", "4", "--seed", "123", "--games", "3"}
	first := runTrace(t, args...)
	assert.True(t, first == runTrace(t, args...), "the same arguments give different traces")
	assert.True(t, first != runTrace(t, "--players", "4", "--seed", "124", "--games", "3"),
		"the seed does not change the trace")
}

// Game k is dealt from seed+k, so a game can be replayed alone: its lines are
// the same but for the "game" number.
func TestTraceSeedsGameKWithSeedPlusK(t *testing.T) {
	both := traceLines(t, runTrace(t, "--seed", "5", "--games", "2"))
	alone := traceLines(t, runTrace(t, "--seed", "6", "--games", "1"))
	require.Less(t, len(alone), len(both))
	second := both[len(both)-len(alone):]
	for i := range alone {
		require.Equal(t, withoutGame(t, alone[i], 0), withoutGame(t, second[i], 1), "line %d of the game", i+1)
	}
}

// withoutGame checks that line belongs to game k and re-encodes it without
// its "game" field; the other values are kept byte for byte.
func withoutGame(t *testing.T, line string, k int) string {
	t.Helper()
	var fields map[string]json.RawMessage
	require.NoError(t, json.Unmarshal([]byte(line), &fields))
	require.Equal(t, fmt.Sprint(k), string(fields["game"]))
	delete(fields, "game")
	out, err := json.Marshal(fields)
	require.NoError(t, err)
	return string(out)
}

func TestTraceActionIsLegalAndLabelled(t *testing.T) {
	eachTracedGame(t, func(t *testing.T, g tracedGame) {
		for _, d := range g.decisions {
			require.Contains(t, d.Legal, d.Action)
			require.Equal(t, splendor.Label(d.Action), d.Label)
			require.Equal(t, legalOf(mustParse(t, d.State.Notation)), d.Legal)
			require.Len(t, d.LegalLabels, len(d.Legal))
			for i, a := range d.Legal {
				require.Equal(t, splendor.Label(a), d.LegalLabels[i], "legal_labels[%d]", i)
			}
		}
	})
}

// legalOf lists the legal indices of s in increasing order.
func legalOf(s splendor.State) []int {
	var m splendor.ActionSet
	s.Legal(&m)
	var legal []int
	for k := 0; k < m.Len(); k++ {
		legal = append(legal, m.Nth(k))
	}
	return legal
}

func TestTraceResultAgreesWithFinalState(t *testing.T) {
	eachTracedGame(t, func(t *testing.T, g tracedGame) {
		r := g.result
		s := mustParse(t, r.Final)
		require.True(t, s.Over())
		assert.Equal(t, int(s.Turn), r.Turns)
		assert.Equal(t, s.Blocked(), r.Blocked)
		var scores, cards, nobles []int
		winners := []int{}
		for i := 0; i < int(s.NumPlayers); i++ {
			p := &s.Players[i]
			scores = append(scores, int(p.Points))
			cards = append(cards, p.Bought.Len())
			nobles = append(nobles, p.Nobles.Len())
			if s.Winners()&(1<<i) != 0 {
				winners = append(winners, i)
			}
		}
		assert.Equal(t, scores, r.Scores)
		assert.Equal(t, cards, r.Cards)
		assert.Equal(t, nobles, r.Nobles)
		assert.Equal(t, winners, r.Winners)
		assert.Equal(t, !r.Blocked, len(r.Winners) > 0, "a game has winners unless it is blocked")
	})
}

func TestTraceNotationRoundTrips(t *testing.T) {
	eachTracedGame(t, func(t *testing.T, g tracedGame) {
		for _, d := range g.decisions {
			s := mustParse(t, d.State.Notation)
			require.Equal(t, d.State.Notation, s.String())
			require.Equal(t, []any{int(s.Turn), int(s.Seat), s.Phase.String()}, []any{d.Turn, d.Seat, d.Phase},
				"decision %d: turn, seat and phase disagree with its state", d.Decision)
		}
	})
}

// The state view spells out the notation; checking one against the other
// catches a field read from the wrong place.
func TestTraceStateViewMatchesNotation(t *testing.T) {
	eachTracedGame(t, func(t *testing.T, g tracedGame) {
		for _, d := range g.decisions {
			checkView(t, d.State, mustParse(t, d.State.Notation))
		}
	})
}

func checkView(t *testing.T, v splendorenv.StateView, s splendor.State) {
	t.Helper()
	require.Equal(t, s.ChoosePayment, v.Payment == paymentChoose, v.Notation)
	require.Equal(t, s.Phase == splendor.PhasePay, v.Buying != nil && v.Due != nil, v.Notation)
	if v.Buying != nil {
		require.Equal(t, []any{int(s.Buying), s.Due[:]}, []any{*v.Buying, gemCounts(*v.Due)}, v.Notation)
	}
	require.Equal(t, []any{int(s.NumPlayers), int(s.Seat), s.Phase.String(), int(s.Turn), s.FinalRound, int(s.Passes)},
		[]any{v.Players, v.Seat, v.Phase, v.Turn, v.FinalRound, v.Passes}, v.Notation)
	require.Equal(t, s.Bank[:], tokenCounts(v.Bank), v.Notation)
	require.Len(t, v.Nobles, splendor.MaxNobles)
	for i, n := range s.Nobles {
		require.Equal(t, n != splendor.NoNoble, v.Nobles[i] != nil, "noble slot %d in %s", i, v.Notation)
		if n != splendor.NoNoble {
			require.Equal(t, int(n), *v.Nobles[i])
		}
	}
	for l := 0; l < splendor.NumLevels; l++ {
		require.Equal(t, marketRow(s.Market[l]), v.Market[l], "market level %d in %s", l+1, v.Notation)
		require.Equal(t, cardIDs(s.Decks[l][:s.DeckSize[l]]), v.Decks[l], "deck level %d in %s", l+1, v.Notation)
	}
	require.Len(t, v.Seats, int(s.NumPlayers))
	for i, seat := range v.Seats {
		checkSeat(t, seat, &s.Players[i])
	}
}

func checkSeat(t *testing.T, v splendorenv.SeatView, p *splendor.Player) {
	t.Helper()
	require.Equal(t, p.Tokens[:], tokenCounts(v.Tokens))
	require.Equal(t, p.Bonus[:], gemCounts(v.Bonuses))
	require.Equal(t, int(p.Points), v.Points)
	bought := []int{}
	for c := splendor.Card(0); c < splendor.NumCards; c++ {
		if p.Bought.Has(c) {
			bought = append(bought, int(c))
		}
	}
	require.Equal(t, bought, v.Bought)
	require.Len(t, v.Reserved, int(p.NumReserved))
	for r, card := range v.Reserved {
		require.Equal(t, []any{int(p.Reserved[r]), p.Blind&(1<<r) != 0}, []any{*card.Card, card.Hidden}, "reserve slot %d", r)
	}
	nobles := []int{}
	for n := splendor.Noble(0); n < splendor.NumNobleTiles; n++ {
		if p.Nobles.Has(n) {
			nobles = append(nobles, int(n))
		}
	}
	require.Equal(t, nobles, v.Nobles)
}

func tokenCounts(v splendorenv.Tokens) []uint8 {
	return append(gemCounts(v.Gems), uint8(v.Gold))
}

func gemCounts(v tv.Gems) []uint8 {
	return []uint8{uint8(v.White), uint8(v.Blue), uint8(v.Green), uint8(v.Red), uint8(v.Black)}
}

func marketRow(row [splendor.MarketSlots]splendor.Card) []*int {
	view := make([]*int, len(row))
	for i, c := range row {
		if c != splendor.NoCard {
			id := int(c)
			view[i] = &id
		}
	}
	return view
}

func cardIDs(cards []splendor.Card) []int {
	ids := []int{}
	for _, c := range cards {
		ids = append(ids, int(c))
	}
	return ids
}

// A card reserved from a deck top is hidden, one reserved face up is not;
// the flag is the only thing that tells an observation builder what to mask.
func TestTraceHiddenFollowsReserveKind(t *testing.T) {
	blind := 0
	eachTracedGame(t, func(t *testing.T, g tracedGame) {
		for i, d := range g.decisions[:len(g.decisions)-1] {
			kind := splendor.ActionAt(d.Action).Kind
			if kind != splendor.ReserveCard && kind != splendor.ReserveTop {
				continue
			}
			reserved := g.decisions[i+1].State.Seats[d.Seat].Reserved
			last := reserved[len(reserved)-1]
			require.Equal(t, kind == splendor.ReserveTop, last.Hidden, "after %q", d.Label)
			if last.Hidden {
				blind++
			}
		}
	})
	require.Positive(t, blind, "no trace reserves blind, so hidden was never checked")
}

// Replaying the recorded actions on a fresh deal reproduces every recorded
// state: the trace is a complete record of the game.
func TestTraceReplays(t *testing.T) {
	eachTracedGame(t, func(t *testing.T, g tracedGame) {
		s, err := splendor.New(g.decisions[0].State.Players, g.result.Seed)
		require.NoError(t, err)
		s.ChoosePayment = g.decisions[0].State.Payment == paymentChoose
		for _, d := range g.decisions {
			require.Equal(t, d.State.Notation, s.String(), "decision %d", d.Decision)
			require.NoError(t, s.Apply(d.Action))
		}
		require.Equal(t, g.result.Final, s.String())
	})
}

func TestTraceRejectsBadArgs(t *testing.T) {
	for _, args := range [][]string{
		{"--players", "5"},
		{"--players", "1"},
		{"--game", "chess"},
		{"--games", "0"},
		{"--payment", "cash"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			var out bytes.Buffer
			assert.Error(t, run(append([]string{"trace"}, args...), &out))
		})
	}
}

func TestTraceRejectsPlayersWithErrPlayers(t *testing.T) {
	err := run([]string{"trace", "--players", "5"}, &bytes.Buffer{})
	assert.ErrorIs(t, err, splendor.ErrPlayers)
}

// Every key the trace writes is described in docs/trace.md.
func TestTraceFieldsAreDocumented(t *testing.T) {
	doc, err := os.ReadFile("../../docs/trace.md")
	require.NoError(t, err)
	keys := map[string]bool{}
	trace := runTrace(t, "--seed", "5") + runTrace(t, "--seed", "3", "--payment", "choose")
	for _, line := range traceLines(t, trace) {
		var v any
		require.NoError(t, json.Unmarshal([]byte(line), &v))
		collectKeys(v, keys)
	}
	require.Contains(t, keys, "hidden", "the trace has no reserved card, so its fields went unchecked")
	require.Contains(t, keys, "due", "the trace has no payment phase, so its fields went unchecked")
	for k := range keys {
		assert.True(t, strings.Contains(string(doc), "`"+k+"`"), "docs/trace.md does not describe %q", k)
	}
}

func collectKeys(v any, keys map[string]bool) {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			keys[k] = true
			collectKeys(x, keys)
		}
	case []any:
		for _, x := range v {
			collectKeys(x, keys)
		}
	}
}

func runPlay(t *testing.T, args ...string) string {
	t.Helper()
	var out bytes.Buffer
	require.NoError(t, run(append([]string{"play"}, args...), &out))
	return out.String()
}

func TestPlayIsDeterministicAndEnds(t *testing.T) {
	for _, players := range []string{"2", "3", "4"} {
		t.Run(players, func(t *testing.T) {
			out := runPlay(t, "--players", players, "--seed", "3")
			assert.True(t, out == runPlay(t, "--players", players, "--seed", "3"), "the same seed plays different games")
			assert.True(t, out != runPlay(t, "--players", players, "--seed", "4"), "the seed does not change the game")
			last := lastLine(out)
			assert.True(t, strings.HasPrefix(last, "Winner: seat ") || strings.HasPrefix(last, "Blocked:"),
				"last line %q", last)
		})
	}
}

// play and trace play the same game for a seed: the same decisions and the
// same winners.
func TestPlayMatchesTrace(t *testing.T) {
	for _, payment := range []string{paymentAuto, paymentChoose} {
		t.Run(payment, func(t *testing.T) { playMatchesTrace(t, "--players", "3", "--seed", "8", "--payment", payment) })
	}
}

func playMatchesTrace(t *testing.T, args ...string) {
	out := runPlay(t, args...)
	g := decodeTrace(t, runTrace(t, args...))[0]
	var labels []string
	for _, d := range g.decisions {
		labels = append(labels, d.Label)
	}
	assert.Equal(t, labels, playedLabels(out))
	require.False(t, g.result.Blocked)
	var winners []string
	for _, w := range g.result.Winners {
		winners = append(winners, fmt.Sprintf("seat %d", w))
	}
	assert.Equal(t, "Winner: "+strings.Join(winners, " and "), lastLine(out))
}

var (
	mainDecision  = regexp.MustCompile(`^turn +\d+  seat \d  (.+)$`)
	laterDecision = regexp.MustCompile(`^ +then (.+)$`)
)

// playedLabels reads the decisions' labels back from play's output.
func playedLabels(out string) []string {
	var labels []string
	for _, line := range strings.Split(out, "\n") {
		m := mainDecision.FindStringSubmatch(line)
		if m == nil {
			m = laterDecision.FindStringSubmatch(line)
		}
		if m != nil {
			labels = append(labels, m[1])
		}
	}
	return labels
}

func lastLine(out string) string {
	lines := strings.Split(strings.TrimSpace(out), "\n")
	return lines[len(lines)-1]
}

// Traces are data people keep: their bytes stay as they were when the state
// views moved into the env packages (env/splendorenv, env/duelenv).
func TestTraceBytesArePinned(t *testing.T) {
	for args, sum := range map[string]string{
		"--players 3 --seed 6 --games 2 --payment choose": "6a924333d4b6d17c3d3c1902f5aa1a2f02b8642d058fdc96d6eb27418937d77c",
		"--game duel --seed 99 --games 2":                 "1f579459bc10656f6bd6aedcd9cd33222907187c127e95c6b3f24d1d5007ebcd",
	} {
		var out bytes.Buffer
		require.NoError(t, run(append([]string{"trace"}, strings.Fields(args)...), &out))
		got := sha256.Sum256(out.Bytes())
		assert.Equal(t, sum, hex.EncodeToString(got[:]), "trace %s changed", args)
	}
}
