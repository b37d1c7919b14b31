"""The observation's layout as the server publishes it in every spec (PROTOCOL.md, `layout`): named blocks, each with
an offset, a shape whose last axis is one row, strides and the names of a row's fields, so that a network finds the
table's cards, nobles and hands by name (`envs.layout["market"]`) instead of copying offsets.

    market = envs.layout["market"]          # splendor-v1: shape (3, 4, 12), levels × slots × a card's values
    cards = obs[..., market.index]          # [N, 3, 4, 12]
    points = obs[..., market.at("points")]  # [N, 3, 4]
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Iterator

import numpy as np


@dataclass(frozen=True)
class Block:
    """One named block: value (i, j, …, f) is observation value offset + i·strides[0] + … + f·strides[-1]."""

    name: str
    offset: int
    shape: tuple[int, ...]
    strides: tuple[int, ...]
    fields: tuple[str, ...]

    @cached_property
    def index(self) -> np.ndarray:
        """The observation index of every value, shaped as the block: `obs[..., block.index]` gathers it (worked
        out once: a training loop gathers every step)."""
        grids = np.meshgrid(*(np.arange(n) for n in self.shape), indexing="ij")
        index = self.offset + sum(g * s for g, s in zip(grids, self.strides))
        index.flags.writeable = False  # shared by every caller
        return index

    def at(self, field: str) -> np.ndarray:
        """The observation index of one field in every row, shaped as the block's rows."""
        return self.index[..., self.fields.index(field)]


class Layout:
    """The blocks of one seat's observation, by name, in the order the spec lists them."""

    def __init__(self, blocks: list[dict], size: int):
        self.blocks = {b["name"]: Block(b["name"], int(b["offset"]), tuple(b["shape"]), tuple(b["strides"]),
                                        tuple(b["fields"])) for b in blocks}
        self.size = size  # values in one seat's observation

    def __getitem__(self, name: str) -> Block:
        return self.blocks[name]

    def __iter__(self) -> Iterator[Block]:
        return iter(self.blocks.values())

    def names(self) -> list[str]:
        return list(self.blocks)

    @classmethod
    def from_spec(cls, spec: dict) -> "Layout":
        return cls(spec["layout"], int(spec["obs_shape"][-1]))
