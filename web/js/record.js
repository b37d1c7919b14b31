// Replay files: JSON Lines in the trace's line types (docs/trace.md), read
// from `splendorctl trace`, the arena's --replays or this viewer, and
// written by play mode so that replay mode (and any trace reader) opens them.

// Seeds are unsigned 64-bit: JSON.parse would round those past 2^53, so the
// seed is read from the line's text as digits.
function lineSeed(text) {
  const match = /"seed"\s*:\s*(\d+)/.exec(text);
  return match ? BigInt(match[1]) : 0n;
}

// readGames groups a file's lines by their `game` field, in file order:
// [{game, seed, decisions: [line…], result: line or null}].
export function readGames(text) {
  const games = new Map();
  for (const raw of text.split("\n")) {
    if (!raw.trim()) continue;
    const line = JSON.parse(raw);
    const game = line.game ?? 0;
    if (!games.has(game)) games.set(game, { game, seed: lineSeed(raw), decisions: [], result: null });
    if (line.type === "decision") games.get(game).decisions.push(line);
    else if (line.type === "result") games.get(game).result = line;
  }
  if (!games.size) throw new Error("no decision or result lines in this file");
  return [...games.values()];
}

// jsonLine writes one line, seeds (BigInt) as plain digits.
export function jsonLine(object) {
  return JSON.stringify(object, (_, value) => typeof value === "bigint" ? `\u0000${value}\u0000` : value)
    .replace(/"\\u0000(\d+)\\u0000"/g, "$1") + "\n";
}

// decisionLine is a trace decision line for a decision played on `episode`
// before `action` is stepped, seen in `view` (the referee's, as a trace is).
export function decisionLine(episode, view, action) {
  const legal = episode.legal();
  return {
    type: "decision", game: 0, seed: episode.seed, decision: episode.actions.length, turn: view.turn,
    seat: view.seat, phase: view.phase, state: view,
    legal: legal.map((move) => move.action), legal_labels: legal.map((move) => move.label),
    action, label: episode.spec.action_labels[action],
  };
}

// resultLine closes a game recorded here. Beyond the trace's result fields it
// keeps `env`, `players` (as the arena's lines do) and `final_view`, so that
// replay mode shows the final position without asking the server.
export function resultLine(episode, finalView) {
  const scores = finalView.seats.map((seat) => seat.points);
  const winners = episode.rewards.flatMap((reward, seat) => reward > 0 ? [seat] : []);
  return {
    type: "result", game: 0, seed: episode.seed, env: episode.spec.id, players: episode.spec.players,
    turns: finalView.turn, decisions: episode.actions.length, truncated: episode.truncated,
    scores, winners, final_state: finalView.notation, final_view: finalView,
  };
}
