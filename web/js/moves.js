// The legal moves of a decision, as buttons, and the board as a way to find
// them: clicking an element with a data-key (a card, a cell, a token kind)
// selects it, and the list keeps only the moves whose label names every
// selected key. The mask alone decides what is offered: a move that is not
// legal never gets a button, and a board element no legal label names is
// not clickable.
import { h } from "./dom.js";

// names says whether an action label names a key, as whole words.
function names(label, key) {
  return ` ${label} `.includes(` ${key} `);
}

export class MovePicker {
  // table holds the drawing, list the buttons; play(action) is called on a choice.
  constructor(table, list, play) {
    Object.assign(this, { table, list, play, legal: [], selected: [], hint: null });
    this.listeners = [
      [table, "click", (event) => this.select(event.target.closest(".playable[data-key]"))],
      [table, "keydown", (event) => this.press(event)],
      [document, "keydown", (event) => this.shortcut(event)],
    ];
    for (const [target, type, listener] of this.listeners) target.addEventListener(type, listener);
  }

  close() {
    for (const [target, type, listener] of this.listeners) target.removeEventListener(type, listener);
  }

  // offer shows a decision's legal moves ([{action, label}]); none: nothing to click.
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

  // press lets Enter or Space select a focused board element, as a click does.
  press(event) {
    if (event.key !== "Enter" && event.key !== " ") return;
    const element = event.target.closest(".playable[data-key]");
    if (!element) return;
    event.preventDefault();
    this.select(element);
  }

  select(element) {
    if (!element) return;
    const key = element.dataset.key;
    this.selected = this.selected.includes(key) ? this.selected.filter((k) => k !== key) : [...this.selected, key];
    if (!this.shown().length) this.selected = [key]; // a fresh start rather than an empty list
    this.refresh();
  }

  shown() {
    return this.legal.filter(({ label }) => this.selected.every((key) => names(label, key)));
  }

  refresh() {
    const hinted = this.legal.find(({ action }) => action === this.hint);
    for (const element of this.table.querySelectorAll("[data-key]")) {
      const key = element.dataset.key;
      const playable = this.legal.some(({ label }) => names(label, key));
      element.classList.toggle("playable", playable);
      element.classList.toggle("selected", this.selected.includes(key));
      element.classList.toggle("hinted", Boolean(hinted && names(hinted.label, key)));
      if (playable) Object.assign(element, { tabIndex: 0 }).setAttribute("role", "button");
    }
    this.drawList();
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
      h("ol", { class: "move-list" }, shown.map(({ action, label }, n) => h("li", {},
        h("button", { type: "button", class: `move${action === this.hint ? " hinted" : ""}`, "data-action": action,
          "aria-keyshortcuts": n < 9 ? String(n + 1) : null, onclick: () => this.choose(action) },
        n < 9 ? h("kbd", {}, String(n + 1)) : null, label))))));
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
