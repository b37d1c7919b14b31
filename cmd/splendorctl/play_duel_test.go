package main

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/splendor-rl/splendor/env/duel"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestPlayDuelIsAWholeDeterministicGame(t *testing.T) {
	out := runPlay(t, "--game", "duel", "--seed", "3")
	assert.True(t, out == runPlay(t, "--game", "duel", "--seed", "3"), "the same seed plays different games")
	assert.True(t, out != runPlay(t, "--game", "duel", "--seed", "4"), "the seed does not change the game")
	assert.True(t, strings.HasPrefix(out, "Splendor Duel, seed 3: random players\n"), out)
	assert.Regexp(t, `^Winner: seat [01], by \d+\+ `, lastLine(out))
	assert.Contains(t, out, "\n                  then ", "no follow-up decision printed")
	assertTurnsCountUp(t, out)
	choose := runPlay(t, "--game", "duel", "--seed", "99", "--payment", "choose")
	assert.True(t, strings.HasPrefix(choose, "Splendor Duel, seed 99, payment choose: random players\n"), choose)
	assert.Contains(t, choose, "then pay ", "no pay decision printed")
}

// Every turn is printed once, numbered from 1, and the result states their
// count.
func assertTurnsCountUp(t *testing.T, out string) {
	t.Helper()
	next := 1
	for _, m := range regexp.MustCompile(`(?m)^turn +(\d+)  seat [01]  `).FindAllStringSubmatch(out, -1) {
		n, err := strconv.Atoi(m[1])
		require.NoError(t, err)
		require.Equal(t, next, n)
		next++
	}
	assert.Contains(t, out, fmt.Sprintf("\nGame over after %d turns.\n", next-1))
}

// play and trace play the same Duel game for a seed and payment rule: the
// same decisions, the same winner, the same victory conditions, and the
// seats' final scores.
func TestPlayDuelMatchesTrace(t *testing.T) {
	for _, args := range [][]string{{"--seed", "3"}, {"--seed", "11"}, {"--seed", "12"},
		{"--seed", "99", "--payment", "choose"}} {
		out := runPlay(t, append([]string{"--game", "duel"}, args...)...)
		decisions, result, _ := duelTrace(t, args...)
		var labels []string
		for _, d := range decisions {
			labels = append(labels, d.Label)
		}
		require.Equal(t, labels, playedLabels(out))
		for i := range result.Scores {
			assert.Contains(t, out, fmt.Sprintf("seat %d: %2d points, %2d crowns, %2d cards, ",
				i, result.Scores[i], result.Crowns[i], result.Cards[i]))
		}
		if result.Blocked {
			assert.True(t, strings.HasPrefix(lastLine(out), "Blocked: "))
			continue
		}
		require.Len(t, result.Winners, 1)
		assert.True(t, strings.HasPrefix(lastLine(out), fmt.Sprintf("Winner: seat %d, by ", result.Winners[0])))
		assert.Equal(t, len(result.Victory), strings.Count(lastLine(out), "+ "), "victory conditions %v", result.Victory)
	}
}

func TestPlayDuelRefusesOtherPlayerCounts(t *testing.T) {
	for _, players := range []string{"3", "4", "1"} {
		_, err := runArgs("play", "--game", "duel", "--players", players)
		require.Error(t, err)
		assert.Contains(t, err.Error(), "2-player game")
	}
	runPlay(t, "--game", "duel", "--players", "2", "--seed", "1")
}

func TestPlayRefusesUnknownGames(t *testing.T) {
	_, err := runArgs("play", "--game", "chess")
	require.Error(t, err)
	assert.Contains(t, err.Error(), `unknown --game "chess"`)
}

func TestVictoryText(t *testing.T) {
	assert.Equal(t, "20+ prestige points", victoryText(duel.VictoryPoints))
	assert.Equal(t, "10+ crowns and 10+ prestige points in one colour", victoryText(duel.VictoryCrowns|duel.VictoryColour))
}

// The per-colour columns name the colours of each engine's order.
func TestColourNames(t *testing.T) {
	assert.Equal(t, "white 1, blue 2, green 3, red 4, black 5", perColour([]uint8{1, 2, 3, 4, 5}, duelColour))
	assert.Equal(t, "white 1, blue 2, green 3, red 4, black 5", perColour([]uint8{1, 2, 3, 4, 5}, splendorColour))
}

// Every decision is printed under the board it is made on: one board per
// decision, whose heading names the turn and seat of the decision line.
func TestPlayPrintsTheBoardBeforeEachDecision(t *testing.T) {
	heading := regexp.MustCompile(`^Splendor(?: Duel)?: turn (\d+), seat (\d) to act`)
	decision := regexp.MustCompile(`^turn +(\d+)  seat (\d)  `)
	for _, args := range [][]string{{"--players", "3", "--seed", "3"}, {"--game", "duel", "--seed", "3"}} {
		out := runPlay(t, args...)
		boards := 0
		var board []string
		for _, line := range strings.Split(out, "\n") {
			if m := heading.FindStringSubmatch(line); m != nil {
				boards, board = boards+1, m[1:]
			}
			if m := decision.FindStringSubmatch(line); m != nil {
				require.Equal(t, board, m[1:], "%v: the board before %q", args, line)
			}
		}
		require.Equal(t, len(playedLabels(out)), boards, "%v: one board per decision", args)
	}
}
