// Small DOM builders shared by both games' drawings.

// h builds an element: h("div", {class: "card", "data-key": "L1 slot2"}, child, "text"…).
// Attributes whose value is null, undefined or false are left out.
export function h(tag, attrs = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (name.startsWith("on")) element.addEventListener(name.slice(2), value);
    else element.setAttribute(name, value === true ? "" : value);
  }
  element.append(...children.flat().filter((child) => child !== null && child !== undefined && child !== false));
  return element;
}

// Every token kind has a letter printed on it, so that a colour is never told
// by its hue alone (colour-blind players); the legend spells the letters out.
export const LETTERS = { white: "W", blue: "U", green: "G", red: "R", black: "K", gold: "$", pearl: "P" };

// chip is one kind's count: a coloured disc with its letter, then the count;
// the full name is the accessible label. `key` makes it selectable (moves.js).
export function chip(kind, count, { key = null, word = false } = {}) {
  const name = `${kind} ${count}`;
  return h("span", { class: `chip ${kind}`, "data-key": key, title: name, "aria-label": name },
    h("span", { class: "disc", "aria-hidden": "true" }, LETTERS[kind]),
    h("span", { class: "count", "aria-hidden": "true" }, String(count)),
    word ? h("span", { class: "word", "aria-hidden": "true" }, kind) : null);
}

// chips lists the kinds of `counts` in `kinds` order, leaving out zeros
// unless asked; `keys` (a label prefix such as "return ") makes them
// selectable, each by the prefix and its kind.
export function chips(counts, kinds, { zeros = false, keys = null, word = false } = {}) {
  return kinds.filter((kind) => zeros || counts[kind] > 0)
    .map((kind) => chip(kind, counts[kind] ?? 0, { key: keys === null ? null : keys + kind, word }));
}

// cost lists what a card or noble asks for, one pip per colour.
export function cost(counts, kinds) {
  return h("div", { class: "cost" },
    kinds.filter((kind) => counts[kind] > 0).map((kind) =>
      h("span", { class: `pip ${kind}`, title: `${counts[kind]} ${kind}` },
        `${counts[kind]}`, h("small", {}, LETTERS[kind]))));
}

// line is one captioned line of a seat's panel ("Tokens", "Bonuses"…).
export function line(caption, ...children) {
  return h("div", { class: "line" }, h("span", { class: "caption" }, caption), ...children);
}

export function legend(kinds) {
  return h("p", { class: "legend" }, kinds.map((kind) => h("span", { class: "legend-item" },
    h("span", { class: `pip ${kind}` }, LETTERS[kind]), ` ${kind} `)));
}
