// Replay mode: a recorded game as a row of positions, one per decision (the
// state before it and the choice made among the legal moves), then the end.
import { h } from "./dom.js";
import { draw } from "./game.js";
import { Episode } from "./episode.js";
import { decisionLine, resultLine } from "./record.js";

// framesOf reads a game's positions from its lines' state views; lines
// without them (the arena's) are re-played on the server from the seed.
export async function framesOf(game, connect) {
  if (game.decisions.length && game.decisions.every((line) => line.state)) return fromLines(game);
  const result = game.result ?? {};
  if (!result.env) throw new Error("this file has neither state views nor the env id to re-play it");
  const options = result.players ? { players: result.players } : {};
  return rebuild(await connect(), { env: result.env, seed: game.seed, options,
    actions: game.decisions.map((line) => line.action) }, result);
}

function fromLines(game) {
  const frames = game.decisions.map((line) => ({ view: line.state, decision: line }));
  const finalView = game.result?.final_view;
  frames.push({ view: finalView ?? frames.at(-1).view, decision: null, result: game.result, before: !finalView });
  return frames;
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
    this.turn = h("input", { type: "number", min: 0, "aria-label": "turn", placeholder: "turn" });
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
    this.ui.situation.textContent = `Position ${this.at + 1} of ${this.frames.length} · turn ${view.turn}` +
      (decision ? ` · seat ${decision.seat} to play (${decision.phase})` : " · game over");
    this.ui.decision.replaceChildren(decision ? this.alternatives(decision) : ending(result, before));
  }

  // alternatives lists the legal moves of the decision, the chosen one marked.
  alternatives(line) {
    return h("div", {},
      h("h2", {}, `Seat ${line.seat} plays `, h("q", { class: "label" }, line.label)),
      line.legal_labels ? [h("p", {}, `${line.legal_labels.length} legal moves:`),
        h("ul", { class: "alternatives" }, line.legal_labels.map((label, k) =>
          h("li", { class: line.legal[k] === line.action ? "chosen" : null }, label)))] : null);
  }

  jump(turn) {
    const at = this.frames.findIndex((frame) => frame.view.turn >= turn);
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
// position (a trace keeps the final state as notation only).
export function ending(result, before) {
  if (!result) return h("p", {}, "End of the recorded decisions.");
  const winners = result.winners?.length ? `Winner: seat ${result.winners.join(", seat ")}` : "No winner";
  return h("div", { class: "result" },
    h("p", {}, `${winners}. Points: ${(result.scores ?? []).join(" – ")}.`),
    before ? h("p", { class: "note" }, "Shown: the position before the last decision.") : null);
}
