// What both modes share: which game a view belongs to, its components, and
// drawing a view onto the table.
import { components, byId } from "./components.js";
import { LETTERS } from "./dom.js";
import { drawSplendor } from "./splendor.js";
import { drawDuel, pyramidIndex } from "./duel.js";

// A Duel view has a board; a Splendor view has a market (docs/trace.md).
export function envOf(view) {
  return view.board ? "splendor-duel-v1" : "splendor-v1";
}

// parts loads the components a drawing looks cards, nobles and royals up in.
export async function parts(env) {
  const all = await components(env);
  return { cards: byId(all.cards), nobles: byId(all.nobles), royals: byId(all.royals), spiral: all.spiral };
}

export function draw(table, view, { parts, seatNames = [] }) {
  const drawing = view.board ? drawDuel : drawSplendor;
  table.replaceChildren(drawing(view, { parts, seatNames }));
}

// turnText counts turns from 1, as the text board (`splendorctl play`, render
// "ansi") does: a view's `turn` is the number of turns completed, so the
// first turn is turn 1, and a game over after 74 turns played 74.
export function turnText(view) {
  return view.phase === "over" || view.over ? `game over after ${view.turn} turns` : `turn ${view.turn + 1}`;
}

// cardText spells a card as the text board does (docs/viewer.md): [K 4p: W7]
// is a black bonus worth 4 points that costs 7 white; a Duel card adds its
// crowns and ability, [KK 2p 1c again: W3 P1], a joker's bonus is ? and a
// card without bonus shows -.
export function cardText(info) {
  const cost = Object.entries(info.cost).filter(([, n]) => n > 0).map(([kind, n]) => `${LETTERS[kind]}${n}`);
  const price = cost.join(" ") || "free";
  if (info.bonuses === undefined) return `[${LETTERS[info.bonus]} ${info.points}p: ${price}]`;
  const bonus = { joker: "?", none: "-" }[info.bonus] ?? LETTERS[info.bonus].repeat(info.bonuses);
  const crowns = info.crowns ? ` ${info.crowns}c` : "";
  const ability = info.ability !== "none" ? ` ${info.ability}` : "";
  return `[${bonus} ${info.points}p${crowns}${ability}: ${price}]`;
}

// moveCard spells the card a move label names in `view` ("buy L2 slot3",
// "reserve L1 slot1", "buy reserved2": the seat to act's hand) as the text
// board of that view does: another seat's blind reserve is "[level 2, face
// down]". Null for a deck and the moves that name no card.
export function moveCard(label, view, parts) {
  const slot = /^(?:buy|reserve) L(\d) slot(\d)$/.exec(label);
  const hand = /^buy reserved(\d)$/.exec(label);
  if (slot) {
    const [level, k] = [Number(slot[1]), Number(slot[2])];
    const id = view.board ? view.pyramid[pyramidIndex(level, k)] : view.market[level - 1][k - 1];
    return cardText(parts.cards.get(id));
  }
  const reserved = hand ? view.seats[view.seat].reserved[Number(hand[1]) - 1] : null;
  if (!reserved) return null;
  return reserved.card === null ? `[level ${reserved.level}, face down]` : cardText(parts.cards.get(reserved.card));
}
