// What both modes share: which game a view belongs to, its components, and
// drawing a view onto the table.
import { components, byId } from "./components.js";
import { drawSplendor } from "./splendor.js";
import { drawDuel } from "./duel.js";

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
