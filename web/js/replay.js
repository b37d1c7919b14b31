// Replay mode: a recorded game as a row of positions, one per decision (the
// state before it and the choice made among the legal moves), then the end.
import { h } from "./dom.js";
import { draw, envOf, moveCard, turnText } from "./game.js";
import { Episode } from "./episode.js";
import { decisionLine, resultLine } from "./record.js";

// framesOf reads a game's positions from its lines' state views; lines
// without them (the arena's) are re-played on the server from the seed.
export async function framesOf(game, connect) {
  if (game.decisions.length && game.decisions.every((line) => line.state)) return fromLines(game, connect);
  const result = game.result ?? {};
  if (!result.env) throw new Error("this file has neither state views nor the env id to re-play it");
  const options = result.players ? { players: result.players } : {};
  return rebuild(await connect(), { env: result.env, seed: game.seed, options,
    actions: game.decisions.map((line) => line.action) }, result);
}

// fromLines ends with the final position: a game saved here keeps its view
// (`final_view`); a trace's result line has the final state as notation only,
// so the server re-plays the game to view it. Without a server, or if its
// game is not the file's, the last decision's position stands in, and says so.
async function fromLines(game, connect) {
  const frames = game.decisions.map((line) => ({ view: line.state, decision: line }));
  const finalView = game.result?.final_view ?? await replayedEnd(game, connect).catch(() => null);
  frames.push({ view: finalView ?? frames.at(-1).view, decision: null, result: game.result, before: !finalView });
  return frames;
}

// A trace has no turn limit; the env's truncates at max_rounds, at most this.
const MAX_ROUNDS = 10000;

// replayedEnd is the referee's view of a trace's final state: the seed and
// the actions re-played on the server with the trace's options (players,
// payment), kept only if its notation is the result's `final_state`.
async function replayedEnd(game, connect) {
  if (!game.result?.final_state) return null;
  const first = game.decisions[0].state;
  const options = { payment: first.payment, max_rounds: MAX_ROUNDS };
  if (first.players) options.players = first.players;
  const episode = await Episode.start(await connect(), { env: envOf(first), seed: game.seed, options });
  try {
    for (const line of game.decisions) await episode.step(line.action);
    const view = await episode.view();
    return view.notation === game.result.final_state ? view : null;
  } finally {
    episode.close();
  }
}

// rebuild plays `actions` on a fresh seeded game, viewing each position as
// the referee (as a trace records it).
export async function rebuild(connection, { env, seed, options, actions }, result = null) {
  const episode = await Episode.start(connection, { env, seed, options });
  const frames = [];
  try {
    for (const action of actions) {
      const view = await episode.view();
      frames.push({ view, decision: decisionLine(episode, view, action) });
      await episode.step(action);
    }
    const finalView = await episode.view();
    frames.push({ view: finalView, decision: null, result: result ?? resultLine(episode, finalView) });
  } finally {
    episode.close();
  }
  return frames;
}

export class Replay {
  // ui: {table, situation, controls, decision}; parts: the game's components.
  constructor(ui, frames, { parts, seatNames = [] }) {
    Object.assign(this, { ui, frames, parts, seatNames, at: 0 });
    this.slider = h("input", { type: "range", min: 0, max: frames.length - 1, value: 0, "aria-label": "position",
      oninput: () => this.show(Number(this.slider.value)) });
    this.turn = h("input", { type: "number", min: 1, "aria-label": "turn", placeholder: "turn" });
    ui.controls.replaceChildren(
      this.button("|◀", "first position", () => this.show(0)),
      this.button("◀", "previous decision (←)", () => this.show(this.at - 1)),
      this.slider,
      this.button("▶", "next decision (→)", () => this.show(this.at + 1)),
      this.button("▶|", "last position", () => this.show(this.frames.length - 1)),
      h("form", { class: "jump", onsubmit: (event) => { event.preventDefault(); this.jump(Number(this.turn.value)); } },
        this.turn, h("button", { type: "submit" }, "Go to turn")));
    this.keys = (event) => this.key(event);
    document.addEventListener("keydown", this.keys);
    this.show(0);
  }

  button(text, title, onclick) {
    return h("button", { type: "button", title, "aria-label": title, onclick }, text);
  }

  show(at) {
    this.at = Math.max(0, Math.min(this.frames.length - 1, at));
    this.slider.value = this.at;
    const { view, decision, result, before } = this.frames[this.at];
    draw(this.ui.table, view, { parts: this.parts, seatNames: this.seatNames });
    const end = result ? `game over after ${result.turns ?? view.turn} turns` : "end of the recorded decisions";
    const where = decision ? `${turnText(view)} · seat ${decision.seat} to play (${decision.phase})` : end;
    this.ui.situation.textContent = `Position ${this.at + 1} of ${this.frames.length} · ${where}`;
    this.ui.decision.replaceChildren(decision ? this.alternatives(decision, view) : ending(result, before));
  }

  // alternatives lists the legal moves of the decision, the chosen one
  // marked, each with the card it names.
  alternatives(line, view) {
    const card = (label) => {
      const text = moveCard(label, view, this.parts);
      return text ? h("span", { class: "card-text" }, ` ${text}`) : null;
    };
    return h("div", {},
      h("h2", {}, `Seat ${line.seat} plays `, h("q", { class: "label" }, line.label), card(line.label)),
      line.legal_labels ? [h("p", {}, `${line.legal_labels.length} legal moves:`),
        h("ul", { class: "alternatives" }, line.legal_labels.map((label, k) =>
          h("li", { class: line.legal[k] === line.action ? "chosen" : null }, label, card(label))))] : null);
  }

  // jump shows the first decision of a turn counted from 1 (turnText).
  jump(turn) {
    const at = this.frames.findIndex((frame) => frame.view.turn >= turn - 1);
    this.show(at < 0 ? this.frames.length - 1 : at);
  }

  key(event) {
    if (event.target.closest("input, select, textarea")) return;
    const moves = { ArrowLeft: -1, ArrowRight: 1, Home: -Infinity, End: Infinity };
    if (event.key in moves) {
      event.preventDefault();
      this.show(this.at + moves[event.key]);
    }
  }

  close() {
    document.removeEventListener("keydown", this.keys);
  }
}

// ending tells who won; `before` says the drawing is the last decision's
// position (fromLines: the server could not re-play the trace's end).
export function ending(result, before, names = []) {
  if (!result) return h("p", {}, "End of the recorded decisions.");
  const who = (seat) => (names[seat] ? `${names[seat]} (seat ${seat})` : `seat ${seat}`);
  const winners = result.winners?.length ? `Winner: ${result.winners.map(who).join(", ")}` : "No winner";
  return h("div", { class: "result" },
    h("p", {}, `${winners}. Points: ${(result.scores ?? []).join(" – ")}.`),
    before ? h("p", { class: "note" }, "Shown: the position before the last decision. The file keeps the final " +
      "state as notation only (final_state), and the server could not re-play the game to it.") : null);
}
