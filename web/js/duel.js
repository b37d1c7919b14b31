// Draws a Splendor Duel state view (docs/trace.md "Splendor Duel"): the 5×5
// board with its spiral, the bag, the pyramid beside its decks, the royals
// still in the box, then both seats. Keys as in splendor.js: cells ("c3"),
// "L1 slot5", "L2 deck", "reserved1", token kinds, royal labels.
import { h, chips, chip, cost, legend, line } from "./dom.js";
import { deck, deckSize, cardBack, costWords } from "./splendor.js";

const COLUMNS = "abcde";
// The pyramid's 12 slots by level, as the view lists them (docs/trace.md).
const PYRAMID = [{ level: 1, slots: 5 }, { level: 2, slots: 4 }, { level: 3, slots: 3 }];

export function drawDuel(view, { parts, seatNames }) {
  const tokens = Object.keys(view.bag);
  const gems = Object.keys(view.seats[0].bonuses);
  return h("div", { class: "duel" },
    legend(tokens),
    h("div", { class: "duel-top" },
      board(view.board, parts.spiral),
      h("div", { class: "bag", "aria-label": "bag" }, h("span", { class: "caption" }, "Bag"),
        chips(view.bag, tokens, { zeros: true, keys: "", word: true })),
      royalsLeft(view, parts)),
    pending(view, parts),
    h("div", { class: "pyramid", "aria-label": "pyramid" }, pyramidRows(view, parts).reverse()),
    h("div", { class: "seats" },
      view.seats.map((seat, i) => seatPanel(view, seat, i, { parts, seatNames, gems, tokens }))));
}

// cellName is the cell's name in the action labels: column a–e, row 1–5.
function cellName(index) {
  return `${COLUMNS[index % 5]}${Math.floor(index / 5) + 1}`;
}

function board(cells, spiral) {
  return h("div", { class: "board", role: "grid", "aria-label": "board" },
    spiral ? spiralPath(spiral) : null,
    cells.map((kind, index) => {
      const name = cellName(index);
      return h("div", { class: `cell${kind ? " " + kind : ""}`, "data-key": name, role: "gridcell",
        "aria-label": `${name} ${kind ?? "empty"}`, title: `${name} ${kind ?? "empty"}` },
      h("small", { class: "name" }, name), kind ? chip(kind, "").firstChild : null);
    }));
}

// spiralPath draws the order in which a replenish fills the board (cell
// indices, centre first), as a faint line under the tokens.
function spiralPath(spiral) {
  const points = spiral.map((cell) => `${(cell % 5) * 20 + 10},${Math.floor(cell / 5) * 20 + 10}`).join(" ");
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("viewBox", "0 0 100 100");
  svg.setAttribute("class", "spiral");
  svg.setAttribute("aria-hidden", "true");
  const line = document.createElementNS("http://www.w3.org/2000/svg", "polyline");
  line.setAttribute("points", points);
  svg.append(line);
  return svg;
}

// pyramidIndex is the place in a view's `pyramid` of a label's "L2 slot3".
export function pyramidIndex(level, slot) {
  return PYRAMID.slice(0, level - 1).reduce((first, row) => first + row.slots, 0) + slot - 1;
}

function pyramidRows(view, parts) {
  let first = 0;
  return PYRAMID.map(({ level, slots }) => {
    const ids = view.pyramid.slice(first, first + slots);
    first += slots;
    return h("div", { class: `row level${level}` },
      deck(`L${level}`, deckSize(view, level - 1)),
      ids.map((id, slot) => id === null
        ? h("div", { class: "card empty", "aria-label": "empty slot" })
        : duelCard(parts.cards.get(id), `L${level} slot${slot + 1}`)));
  });
}

// duelCard adds crowns, a double bonus and the ability to a Splendor card face.
function duelCard(info, key) {
  const ability = info.ability !== "none" ? info.ability : null;
  const bonus = info.bonuses === 0 ? "no bonus" : info.bonuses > 1 ? `${info.bonus} ×${info.bonuses}` : info.bonus;
  const label = `${key ? key + ": " : ""}${bonus} card, ${info.points} points, ${info.crowns} crowns` +
    `${ability ? ", " + ability : ""}, costs ${costWords(info.cost)}`;
  const attrs = { class: `card ${info.bonus}`, "data-key": key, "data-card": info.id };
  return h("div", { ...attrs, "aria-label": label, title: label },
    h("div", { class: "band" }, h("span", { class: "points" }, info.points || ""),
      info.crowns ? h("span", { class: "crowns" }, `♛${info.crowns}`) : null,
      h("span", { class: "gem" }, bonus)),
    ability ? h("span", { class: "ability" }, ability) : null,
    cost(info.cost, Object.keys(info.cost)));
}

// royalKey is the royal's action label ("royal 2pt again", "royal 3pt").
function royalKey(royal) {
  return `royal ${royal.points}pt${royal.ability !== "none" ? " " + royal.ability : ""}`;
}

// royal draws a royal card; one still in the box can be chosen (keyed).
function royal(info, keyed) {
  const name = royalKey(info);
  return h("div", { class: "royal", "data-key": keyed ? name : null, title: name, "aria-label": name },
    h("span", { class: "points" }, info.points),
    info.ability !== "none" ? h("span", { class: "ability" }, info.ability) : null);
}

function royalsLeft(view, parts) {
  const taken = new Set(view.seats.flatMap((seat) => seat.royals));
  return h("div", { class: "royals", "aria-label": "royals" }, h("span", { class: "caption" }, "Royals"),
    [...parts.royals.values()].filter((r) => !taken.has(r.id)).map((r) => royal(r, true)));
}

// pending shows the card being paid for, or whose joker colour or ability is decided.
function pending(view, parts) {
  if (view.pending === null || view.pending === undefined) return null;
  return h("div", { class: "buying" }, h("span", { class: "caption" }, "Deciding for"),
    duelCard(parts.cards.get(view.pending), null),
    view.due ? [h("span", { class: "caption" }, "still due"), chips(view.due, Object.keys(view.due))] : null);
}

function seatPanel(view, seat, i, { parts, seatNames, gems, tokens }) {
  const toPlay = view.seat === i && view.phase !== "over";
  return h("section", { class: `seat${toPlay ? " to-play" : ""}`, "aria-label": `seat ${i}`, "data-seat": i },
    h("h3", {}, seatNames[i] ?? `Seat ${i}`,
      h("span", { class: "points", title: "points" }, `${seat.points} pt`),
      h("span", { class: "crowns", title: "crowns" }, `♛ ${seat.crowns}`),
      h("span", { class: "privileges", title: "privileges" }, `privileges ${seat.privileges}`)),
    line("Tokens", chips(seat.tokens, tokens, { keys: toPlay ? "return " : "steal " })),
    line("Bonuses", chips(seat.bonuses, gems)),
    line("Points by colour", chips(seat.colour_points, gems)),
    line("Reserved",
      seat.reserved.map((r, k) => reservedCard(r, toPlay ? `reserved${k + 1}` : null, parts))),
    seat.royals.length ? line("Royals",
      seat.royals.map((id) => royal(parts.royals.get(id), false))) : null,
    h("p", { class: "bought" }, `${seat.bought.length} cards bought`,
      jokers(seat.joker_colours)));
}

function jokers(colours) {
  const entries = Object.values(colours ?? {});
  return entries.length ? `; jokers as ${entries.join(", ")}` : "";
}

function reservedCard(entry, key, parts) {
  if (entry.card === null) return cardBack(entry.level, key);
  const face = duelCard(parts.cards.get(entry.card), key);
  if (entry.hidden) face.classList.add("blind");
  return face;
}
