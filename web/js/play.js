// Play mode: a person against built-in bots on one seeded self-play env.
// The person's seat is stepped with what they click (legal moves only: the
// step reply's mask); every other seat asks `bot_actions` and steps that, so
// the bots' decisions pass through here and are shown with their labels.
// Until the game is over the page receives only what the person's seat may
// see (its view, its observation and mask): the deck order and the bots'
// blind reserves stay on the server. The replay, which is the referee's,
// is re-played on the server from the seed and the actions once it is over.
import { h } from "./dom.js";
import { draw, moveCard, turnText } from "./game.js";
import { Episode } from "./episode.js";
import { MovePicker } from "./moves.js";
import { jsonLine } from "./record.js";
import { ending, rebuild } from "./replay.js";

// The bots a table can play, weakest first (the ladder, docs/ladder.md):
// the built-in kinds everywhere, the baseline ones where hello lists a
// network for the game and table size.
export function tableBots(hello, env, players) {
  const shipped = (hello.baselines ?? []).some((b) => b.env === env && b.players === players && !b.edition);
  return ["random", "greedy", "mcts", ...(shipped ? ["baseline", "baseline+search:64", "baseline+search:1024"] : [])];
}
// What the table waits for, as the situation line says it; the page's
// body carries it as data-play for scripts (the browser tests wait on it).
const WAITING = { "your-move": "your move", bot: "a bot is thinking", over: "game over" };

export class Play {
  // ui: {table, situation, controls, decision, moves}; game: {env, seed, options, seat, bot, bots, delay}:
  // bots are the table's (tableBots), which the Hint offers, the strongest first chosen.
  constructor(ui, connection, game, parts) {
    Object.assign(this, { ui, connection, game, parts, stopped: false });
    this.seatNames = Array.from({ length: 4 }, (_, i) => `Seat ${i} · ${i === game.seat ? "you" : game.bot}`);
    this.picker = new MovePicker(ui.table, ui.moves, (action) => this.answer(action));
    this.log = h("ol", { class: "alternatives", "aria-label": "decisions so far" });
    ui.decision.replaceChildren(h("h2", {}, "Decisions"), this.log);
    this.drawControls();
  }

  drawControls() {
    const strongest = this.game.bots.at(-1);
    this.hintBot = h("select", { "aria-label": "hint bot" },
      this.game.bots.map((name) => h("option", { selected: name === strongest }, name)));
    this.ui.controls.replaceChildren(
      h("button", { type: "button", id: "hint", onclick: () => this.hint() }, "Hint"), this.hintBot);
  }

  // run plays the game to its end; a game stopped half-way (the page moved
  // on, its env closed under it) ends quietly.
  async run() {
    try {
      await this.playOut(await Episode.start(this.connection, this.game, this.game.seat));
    } catch (error) {
      if (!this.stopped) throw error;
    }
  }

  async playOut(episode) {
    this.episode = episode;
    while (!episode.over && !this.stopped) {
      const view = await episode.view(this.game.seat);
      this.show(view, episode.toPlay === this.game.seat ? "your-move" : "bot");
      const action = episode.toPlay === this.game.seat ? await this.ask(episode, view) : await this.botMove(episode);
      if (this.stopped) break;
      this.note(episode.toPlay, this.move(episode.spec.action_labels[action], view));
      await episode.step(action);
    }
    if (!this.stopped) await this.finish(episode);
  }

  show(view, waiting) {
    draw(this.ui.table, view, { parts: this.parts, seatNames: this.seatNames });
    this.ui.situation.textContent = waiting === "over" ? turnText(view)
      : `${turnText(view)} · seat ${view.seat} (${view.phase}): ${WAITING[waiting]}`;
    document.body.dataset.play = waiting;
  }

  ask(episode, view) {
    return new Promise((resolve) => {
      this.answer = resolve;
      this.picker.offer(episode.legal().map(({ action, label }) => ({ action, ...this.move(label, view) })));
    });
  }

  // move is a label with the card it names in the view the decision was
  // made in (the market slot's card before the buy refills it).
  move(label, view) {
    return { label, card: moveCard(label, view, this.parts) };
  }

  async botMove(episode) {
    await new Promise((resolve) => setTimeout(resolve, this.game.delay));
    return episode.advice(this.game.bot);
  }

  async hint() {
    if (this.episode?.toPlay !== this.game.seat || this.episode.over) return;
    this.picker.showHint(await this.episode.advice(this.hintBot.value));
  }

  note(seat, { label, card }) {
    this.log.append(h("li", {}, `${this.seatNames[seat]}: ${label}`, card ? ` ${card}` : null));
    this.log.scrollTop = this.log.scrollHeight; // the newest in sight, without scrolling the page
  }

  // finish shows the end as the referee sees it and offers the replay: the
  // game is over, so nothing is hidden any more.
  async finish(episode) {
    episode.close();
    const frames = await rebuild(this.connection, { ...this.game, actions: episode.actions });
    if (this.stopped) return;
    const { view: finalView, result } = frames.at(-1);
    this.show(finalView, "over");
    window.scrollTo({ top: 0 }); // the header, the final table and the result in sight, wherever the game left the page
    const lines = [...frames.slice(0, -1).map((frame) => frame.decision), result];
    const file = new Blob(lines.map(jsonLine), { type: "application/jsonl" });
    this.ui.controls.replaceChildren(
      h("a", { class: "button", id: "save-replay", href: URL.createObjectURL(file),
        download: `${this.game.env}-seed${this.game.seed}.jsonl` }, "Save replay"),
      h("a", { id: "replay-link", href: replayLink(this.game, episode.actions) }, "Link to this game"));
    this.ui.decision.prepend(ending(result, false, this.seatNames.map((_, seat) => (seat === this.game.seat
      ? "you" : this.game.bot))));
  }

  stop() {
    this.stopped = true;
    this.picker.close();
    this.episode?.close();
  }
}

// replayLink is a URL that re-plays this game on any server (docs/viewer.md).
function replayLink({ env, seed, options }, actions) {
  return `#replay?${new URLSearchParams({ env, seed, ...options, actions: actions.join(".") })}`;
}
