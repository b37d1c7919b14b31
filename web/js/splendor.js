// Draws a Splendor state view (docs/trace.md "State view", or the wire's
// `view` op) as the table looks: nobles, three card rows beside their decks,
// the bank, then each seat. Elements a move can name carry data-key, the words
// of the action labels that name them ("L2 slot3", "L1 deck", "noble2",
// "reserved1", "white"), so moves.js can match clicks to legal moves.
import { h, chips, cost, legend, line } from "./dom.js";

export function drawSplendor(view, { parts, seatNames }) {
  const gems = Object.keys(view.seats[0].bonuses);
  const tokens = Object.keys(view.bank);
  return h("div", { class: "splendor" },
    legend(tokens),
    h("div", { class: "nobles", "aria-label": "nobles" },
      view.nobles.map((id, slot) => id === null ? null : noble(parts.nobles.get(id), `noble${slot + 1}`, gems))),
    h("div", { class: "market", "aria-label": "cards" },
      [2, 1, 0].map((row) => marketRow(view, row, parts, gems))),
    h("div", { class: "bank", "aria-label": "bank" }, h("span", { class: "caption" }, "Bank"),
      chips(view.bank, tokens, { zeros: true, keys: "", word: true })),
    finalRound(view) ? h("p", { class: "final-round" }, "Final round: a seat has reached 15 points") : null,
    view.buying !== undefined ? buying(view, parts, gems) : null,
    h("div", { class: "seats" },
      view.seats.map((seat, i) => seatPanel(view, seat, i, { parts, seatNames, gems, tokens }))));
}

// finalRound says the round is being completed: once the game is over it is
// complete (the text board drops it too).
function finalRound(view) {
  return view.final_round && view.phase !== "over" && !view.over;
}

function marketRow(view, row, parts, gems) {
  const level = `L${row + 1}`;
  return h("div", { class: `row level${row + 1}` },
    deck(level, deckSize(view, row)),
    view.market[row].map((id, slot) => id === null
      ? h("div", { class: "card empty", "aria-label": "empty slot" })
      : card(parts.cards.get(id), `${level} slot${slot + 1}`, gems)));
}

// deckSize reads the count a seat's view gives, or counts a referee view's deck.
export function deckSize(view, row) {
  return view.deck_sizes ? view.deck_sizes[row] : view.decks[row].length;
}

export function deck(level, size) {
  const key = size > 0 ? `${level} deck` : null;
  return h("div", { class: "deck", "data-key": key, "aria-label": `${level} deck, ${size} cards` },
    h("span", { class: "level" }, level), h("span", { class: "size" }, `${size} left`));
}

// card draws a face-up development card: points and bonus on its band, cost below.
function card(info, key, gems) {
  const label = `${key ? key + ": " : ""}${info.bonus} card, ${info.points} points, costs ${costWords(info.cost)}`;
  const attrs = { class: `card ${info.bonus}`, "data-key": key, "data-card": info.id };
  return h("div", { ...attrs, "aria-label": label, title: label },
    h("div", { class: "band" }, h("span", { class: "points" }, info.points || ""),
      h("span", { class: `gem ${info.bonus}` }, info.bonus)),
    cost(info.cost, gems));
}

// cardBack is a card only its owner may see: its level shows, nothing else.
export function cardBack(level, key) {
  return h("div", { class: "card back", "data-key": key, "aria-label": `hidden level ${level} card` },
    h("span", { class: "level" }, `L${level}`));
}

function noble(info, key, gems) {
  const label = `${key ? key + ": " : ""}${info.points} points for ${costWords(info.needs)} bonuses`;
  return h("div", { class: "noble", "data-key": key, title: label, "aria-label": label },
    h("span", { class: "points" }, info.points), cost(info.needs, gems));
}

function buying(view, parts, gems) {
  return h("div", { class: "buying" }, h("span", { class: "caption" }, "Paying for"),
    card(parts.cards.get(view.buying), null, gems),
    h("span", { class: "caption" }, "still due"), chips(view.due, gems));
}

function seatPanel(view, seat, i, { parts, seatNames, gems, tokens }) {
  const toPlay = view.seat === i && view.phase !== "over";
  return h("section", { class: `seat${toPlay ? " to-play" : ""}`, "aria-label": `seat ${i}`, "data-seat": i },
    h("h3", {}, seatNames[i] ?? `Seat ${i}`, h("span", { class: "points", title: "points" }, `${seat.points} pt`)),
    line("Tokens", chips(seat.tokens, tokens, { keys: toPlay ? "return " : null })),
    line("Bonuses", chips(seat.bonuses, gems)),
    line("Reserved",
      seat.reserved.map((r, k) => reserved(r, toPlay ? `reserved${k + 1}` : null, parts, gems))),
    seat.nobles.length ? line("Nobles",
      seat.nobles.map((id) => noble(parts.nobles.get(id), null, gems))) : null,
    h("p", { class: "bought" }, `${seat.bought.length} cards bought`));
}

// reserved draws a reserved card: face down when this view may not see it
// (`card: null`, another seat's blind reserve), marked when it was blind.
function reserved(entry, key, parts, gems) {
  if (entry.card === null) return cardBack(entry.level, key);
  const face = card(parts.cards.get(entry.card), key, gems);
  if (entry.hidden) face.classList.add("blind");
  return face;
}

export function costWords(counts) {
  return Object.entries(counts).filter(([, n]) => n > 0).map(([kind, n]) => `${n} ${kind}`).join(", ") || "nothing";
}
