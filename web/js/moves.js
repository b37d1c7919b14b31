// The legal moves of a decision, as buttons, and the board as a way to choose
// them. Clicking an element with a data-key (a card, a cell, a token kind)
// selects it, and only the moves whose label names every selected key are
// kept: one left is played at once (a card only a buy names is bought), two
// or three are offered beside the element (a card's buy and reserve), more
// narrow the list, and the next click narrows further (a bank's colours, one
// at a time, build a take; the same colour twice is "take 2"). The buttons
// stay as the list of every choice. The mask alone decides what is offered:
// a move that is not legal never gets a button, and a board element no legal
// label names is not clickable.
import { h } from "./dom.js";

// times counts how often a label names a key, as whole words: "take 2 white"
// names white twice, "take white blue green" names white once.
function times(label, key) {
  const text = ` ${label} `;
  let count = 0;
  for (let at = text.indexOf(` ${key} `); at >= 0; at = text.indexOf(` ${key} `, at + 1)) {
    count += text.slice(0, at).endsWith(" 2") ? 2 : 1;
  }
  return count;
}

// Beside a clicked element, at most this many moves: a card's buy and
// reserve, Duel's lines through two cells; more go to the list only.
const NEARBY = 3;

export class MovePicker {
  // table holds the drawing, list the buttons; play(action) is called on a
  // choice. Moves are {action, label, card}: `card` spells the card the
  // label names, if any (game.js moveCard), and is shown after the label.
  constructor(table, list, play) {
    Object.assign(this, { table, list, play, legal: [], selected: [], hint: null });
    this.listeners = [
      [table, "click", (event) => this.click(event)],
      [table, "keydown", (event) => this.press(event)],
      [document, "keydown", (event) => this.shortcut(event)],
    ];
    for (const [target, type, listener] of this.listeners) target.addEventListener(type, listener);
  }

  close() {
    for (const [target, type, listener] of this.listeners) target.removeEventListener(type, listener);
  }

  // offer shows a decision's legal moves; none: nothing to click.
  offer(legal) {
    Object.assign(this, { legal, selected: [], hint: null });
    this.refresh();
  }

  showHint(action) {
    this.hint = action;
    this.selected = [];
    this.refresh();
    this.list.querySelector(".hinted")?.scrollIntoView({ block: "nearest" });
  }

  // click selects the board element clicked; a click in the moves offered
  // beside an element is theirs (their buttons play).
  click(event) {
    if (!event.target.closest(".choices")) this.select(event.target.closest(".playable[data-key]"));
  }

  // press lets Enter or Space select a focused board element, as a click does.
  press(event) {
    if (event.key !== "Enter" && event.key !== " ") return;
    const element = event.target.closest(".playable[data-key]");
    if (!element || event.target.closest(".choices")) return;
    event.preventDefault();
    this.select(element);
  }

  select(element) {
    if (!element) return;
    const key = element.dataset.key;
    this.selected.push(key);
    if (!this.shown().length) this.selected = [key]; // a fresh start rather than an empty list
    const shown = this.shown();
    if (shown.length === 1) {
      this.choose(shown[0].action);
      return;
    }
    this.refresh();
    if (shown.length <= NEARBY) this.offerBeside(element, shown);
  }

  // shown are the legal moves that name every selected key as often as it
  // was selected.
  shown() {
    const counts = new Map();
    for (const key of this.selected) counts.set(key, (counts.get(key) ?? 0) + 1);
    return this.legal.filter(({ label }) => [...counts].every(([key, n]) => times(label, key) >= n));
  }

  refresh() {
    this.table.querySelector(".choices")?.remove();
    const hinted = this.legal.find(({ action }) => action === this.hint);
    for (const element of this.table.querySelectorAll("[data-key]")) {
      const key = element.dataset.key;
      const playable = this.legal.some(({ label }) => times(label, key) > 0);
      element.classList.toggle("playable", playable);
      element.classList.toggle("selected", this.selected.includes(key));
      element.classList.toggle("hinted", Boolean(hinted && times(hinted.label, key) > 0));
      if (playable) Object.assign(element, { tabIndex: 0 }).setAttribute("role", "button");
    }
    this.drawList();
  }

  // offerBeside lists a few moves just under the element clicked, in the
  // table (positioned through the CSSOM: the page's style-src forbids style
  // attributes), and gives the first the focus for the keyboard.
  offerBeside(element, moves) {
    const menu = h("div", { class: "choices", role: "group", "aria-label": "moves for this element" },
      moves.map((move) => this.moveButton(move, "choice")));
    this.table.append(menu);
    const [table, at] = [this.table.getBoundingClientRect(), element.getBoundingClientRect()];
    menu.style.top = `${at.bottom - table.top + 4}px`;
    menu.style.left = `${Math.max(0, Math.min(at.left - table.left, table.width - menu.offsetWidth))}px`;
    menu.querySelector("button").focus({ preventScroll: true });
  }

  moveButton({ action, label, card }, kind, n = null) {
    return h("button", { type: "button", class: `${kind}${action === this.hint ? " hinted" : ""}`,
      "data-action": action, "aria-keyshortcuts": n, onclick: () => this.choose(action) },
    n ? h("kbd", {}, n) : null, label, card ? h("span", { class: "card-text" }, ` ${card}`) : null);
  }

  drawList() {
    const shown = this.shown();
    if (!this.legal.length) {
      this.list.replaceChildren();
      return;
    }
    this.list.replaceChildren(h("div", {},
      h("h2", {}, `Your move (${shown.length} of ${this.legal.length})`),
      this.selected.length ? h("button", { type: "button", class: "clear", onclick: () => this.offer(this.legal) },
        `Clear selection (${this.selected.join(", ")})`) : null,
      h("ol", { class: "move-list" }, shown.map((move, n) =>
        h("li", {}, this.moveButton(move, "move", n < 9 ? String(n + 1) : null))))));
  }

  choose(action) {
    const legal = this.legal;
    this.offer([]);
    if (legal.some((move) => move.action === action)) this.play(action);
  }

  // Number keys 1–9 play the listed moves, Escape clears the selection; keys
  // typed into a form field are the field's.
  shortcut(event) {
    if (!this.legal.length || event.target.closest("input, select, textarea")) return;
    if (event.key === "Escape") this.offer(this.legal);
    const n = Number(event.key);
    const shown = this.shown();
    if (n >= 1 && n <= 9 && n <= shown.length) this.choose(shown[n - 1].action);
  }
}
