"""Render modes of the single and AEC envs, from the server's `view` op (PROTOCOL.md §3): "ansi" is the server's
text board, "human" prints it, "rgb_array" draws the view with matplotlib (the `render` extra) from the game's
components (`GET /api/components/<env id>`, PROTOCOL.md §9)."""

from __future__ import annotations

import json
import urllib.request
from functools import lru_cache
from typing import Any

import numpy as np

from .extras import require

RENDER_MODES = ["human", "ansi", "rgb_array"]

COLOURS = ["white", "blue", "green", "red", "black"]
LETTERS = dict(zip(COLOURS + ["pearl", "gold"], "WUGRKP$"))
FILL = {"white": "#f4f1e8", "blue": "#2f6fd0", "green": "#2e9b50", "red": "#d23b2e", "black": "#3a3a3a",
        "pearl": "#e9d3ea", "gold": "#e6bd2f", "joker": "#b9a6d9", "none": "#c8c8c8"}
DARK = {"blue", "green", "red", "black"}  # fills that want white text


def check_render_mode(mode: str | None) -> str | None:
    if mode is not None and mode not in RENDER_MODES:
        raise ValueError(f"render_mode={mode!r}: choose one of {RENDER_MODES} or None")
    return mode


def render_human(env: Any) -> None:
    """Gymnasium's convention for "human" mode: reset() and step() render by themselves."""
    if env.render_mode == "human":
        env.render()


def components_url(ws_url: str, env_id: str) -> str:
    """The components address beside a server's WebSocket URL: ws://h:p/ws → http://h:p/api/components/<id>."""
    scheme, rest = ws_url.split("://", 1)
    host = rest.split("/", 1)[0]
    return f"{'https' if scheme == 'wss' else 'http'}://{host}/api/components/{env_id}"


@lru_cache(maxsize=8)
def components(ws_url: str, env_id: str) -> dict:
    """The game's cards, nobles or royals by id; fixed for a server, so fetched once."""
    with urllib.request.urlopen(components_url(ws_url, env_id), timeout=30) as reply:
        return json.load(reply)


class Renderer:
    """Mixed into `SplendorEnv` and `SplendorAEC`, which own one server env (`_vec`) and say whose view they
    render (`_render_seat`: a seat, or None for the referee's view)."""

    render_mode: str | None
    _vec: Any

    def _render_seat(self) -> int | None:
        return None

    def render(self) -> str | np.ndarray | None:
        frames = render_frames(self._vec, self.render_mode, [0], self._render_seat(), self._vec.connection.url)
        return None if frames is None else frames[0]


def render_frames(envs: Any, mode: str | None, env_ids: list[int] | None, seat: int | None,
                  url: str) -> list | None:
    """The frames of `envs`' listed envs (a vector env's `view`; `url` a server's, for the components): boards
    ("ansi"), images ("rgb_array"), or None after printing the boards ("human") or warning that no render_mode was
    given."""
    if mode is None:
        import gymnasium

        gymnasium.logger.warn("render() without a render_mode: make the env with render_mode='ansi', "
                              "'rgb_array' or 'human'")
        return None
    views, boards = envs.view(env_ids, seat=seat)
    if mode == "human":
        print("\n\n".join(boards))
        return None
    if mode == "ansi":
        return boards
    parts = components(url, envs.spec_info["id"])
    return [draw(view, parts) for view in views]


def draw(view: dict, parts: dict) -> np.ndarray:
    """The view as an RGB image (H×W×3 uint8): Splendor when `parts` has nobles, else Splendor Duel."""
    require("render_mode='rgb_array'", "render", "matplotlib")
    from matplotlib.backends.backend_agg import FigureCanvasAgg  # no window: works without a display
    from matplotlib.figure import Figure

    fig = Figure(figsize=(10, 7.5), dpi=100)
    canvas = FigureCanvasAgg(fig)
    ax = fig.add_axes((0, 0, 1, 1))
    ax.set_xlim(0, 100)
    ax.set_ylim(0, 75)
    ax.axis("off")
    fig.patch.set_facecolor("#f7f7f2")
    cards = {c["id"]: c for c in parts["cards"]}
    if "nobles" in parts:
        _draw_splendor(ax, view, cards, {n["id"]: n for n in parts["nobles"]})
    else:
        _draw_duel(ax, view, cards, {r["id"]: r for r in parts["royals"]})
    canvas.draw()
    return np.asarray(canvas.buffer_rgba())[..., :3].copy()


def _title(ax, view: dict, game: str) -> None:
    over = " — episode over" if view.get("over") else ""
    ax.text(1, 73, f"{game}: turn {view['turn'] + 1}, seat {view['seat']} to act ({view['phase']}){over}",
            fontsize=12, weight="bold", va="top")


def _cost(cost: dict) -> str:
    return " ".join(f"{LETTERS[k]}{n}" for k, n in cost.items() if n)


def _card(ax, x: float, y: float, card: dict | None, w: float, h: float, level: int | None = None) -> None:
    """A card at (x, y) (bottom left): its bonus colour, points top left, bonus letter top right, cost below;
    face down (grey, its level) when `card` is None."""
    from matplotlib.patches import FancyBboxPatch

    bonus = "none" if card is None else card["bonus"]
    ax.add_patch(FancyBboxPatch((x, y), w, h, boxstyle="round,pad=0.2", fc=FILL[bonus], ec="#222", lw=0.8))
    ink = "white" if bonus in DARK else "black"
    if card is None:
        ax.text(x + w / 2, y + h / 2, f"L{level}", ha="center", va="center", fontsize=7, color=ink)
        return
    extra = "".join(f" {card[k]}{k[0]}" for k in ("crowns",) if card.get(k))
    ax.text(x + 0.5, y + h - 0.5, f"{card['points'] or ''}{extra}", va="top", fontsize=10, weight="bold", color=ink)
    letter = "?" if bonus == "joker" else LETTERS.get(bonus, "-") * max(card.get("bonuses", 1), 1)
    ax.text(x + w - 0.5, y + h - 0.5, letter, ha="right", va="top", fontsize=9, color=ink)
    if card.get("ability", "none") != "none":
        ax.text(x + w / 2, y + h / 2, card["ability"], ha="center", va="center", fontsize=6, color=ink)
    cost = _cost(card["cost"])  # one line on a small card (a reserve), one colour per line on a big one
    ax.text(x + 0.5, y + 0.5, cost if h < 8 else cost.replace(" ", "\n"), fontsize=6.5, color=ink, va="bottom")


def _tokens(ax, x: float, y: float, tokens: dict, r: float = 1.6) -> None:
    """One disc per token kind with its count."""
    from matplotlib.patches import Circle

    for k, (kind, n) in enumerate(tokens.items()):
        cx = x + k * (2 * r + 0.8)
        ax.add_patch(Circle((cx, y), r, fc=FILL[kind], ec="#222", lw=0.8))
        ax.text(cx, y, str(n), ha="center", va="center", fontsize=8, color="white" if kind in DARK else "black")


def _seats(ax, view: dict, cards: dict, top: float, summary) -> None:
    """Each seat: a summary line, its tokens, its reserved cards (others' blind ones face down)."""
    for i, seat in enumerate(view["seats"]):
        y = top - i * 15
        marker = "> " if i == view["seat"] else ""
        ax.text(62, y, f"{marker}seat {i}: {summary(seat)}", fontsize=9, weight="bold", va="top")
        _tokens(ax, 63.5, y - 4.5, seat["tokens"], r=1.2)
        ax.text(62, y - 7, "bonuses " + " ".join(f"{LETTERS[c]}{seat['bonuses'][c]}" for c in COLOURS),
                fontsize=8, va="top")
        for k, r in enumerate(seat["reserved"]):
            card = None if r["card"] is None else cards[r["card"]]
            _card(ax, 62 + k * 12.5, y - 14, card, w=11.5, h=5.5, level=r.get("level"))


def _draw_splendor(ax, view: dict, cards: dict, nobles: dict) -> None:
    _title(ax, view, "Splendor")
    _tokens(ax, 3, 67, view["bank"])
    for k, n in enumerate(x for x in view["nobles"] if x is not None):
        from matplotlib.patches import Rectangle

        ax.add_patch(Rectangle((26 + k * 7, 64), 6, 6, fc="#f0e0c0", ec="#222", lw=0.8))
        ax.text(26.5 + k * 7, 69.5, "3", fontsize=9, weight="bold", va="top")
        ax.text(26.5 + k * 7, 64.5, _cost(nobles[n]["needs"]).replace(" ", "\n"), fontsize=6, va="bottom")
    for row, level in enumerate(reversed(range(len(view["market"])))):
        y = 50 - row * 16
        ax.text(1, y + 4, f"L{level + 1}\n{view['deck_sizes'][level]}", fontsize=9, va="center")
        for k, c in enumerate(view["market"][level]):
            if c is not None:
                _card(ax, 7 + k * 11, y, cards[c], w=10, h=12)
    _seats(ax, view, cards, 62, lambda s: f"{s['points']} points, {len(s['nobles'])} nobles")


def _draw_duel(ax, view: dict, cards: dict, royals: dict) -> None:
    from matplotlib.patches import Circle

    _title(ax, view, "Splendor Duel")
    for cell, kind in enumerate(view["board"]):
        cx, cy = 4 + (cell % 5) * 4.2, 66 - (cell // 5) * 4.2
        ax.add_patch(Circle((cx, cy), 1.8, fc=FILL[kind] if kind else "#dddddd", ec="#222", lw=0.6))
        if kind:
            ax.text(cx, cy, LETTERS[kind], ha="center", va="center", fontsize=7,
                    color="white" if kind in DARK else "black")
    ax.text(25, 68, "bag", fontsize=9, va="center")
    _tokens(ax, 30, 68, view["bag"], r=1.3)
    privileges = 3 - sum(s["privileges"] for s in view["seats"])
    taken = {r for s in view["seats"] for r in s["royals"]}
    left = ", ".join(f"{royals[r]['points']}p {royals[r]['ability']}" for r in sorted(royals) if r not in taken)
    ax.text(25, 63, f"privileges on the table: {privileges}\nroyals: {left or 'none'}", fontsize=8, va="top")
    start = 0
    for level, size in enumerate((5, 4, 3)):  # the pyramid: level 1 at the bottom
        y = 6 + level * 14
        ax.text(1, y + 5, f"L{level + 1}\n{view['deck_sizes'][level]}", fontsize=9, va="center")
        for k, c in enumerate(view["pyramid"][start:start + size]):
            if c is not None:
                _card(ax, 7 + (5 - size) * 5.25 + k * 10.5, y, cards[c], w=9.5, h=11)
        start += size
    _seats(ax, view, cards, 62, lambda s: f"{s['points']} points, {s['crowns']} crowns, "
                                          f"{s['privileges']} privileges")
