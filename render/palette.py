"""Writing each game's fixed PNG palette: 256 colours learnt once from many pictures of the
game, stored in ``palettes.json`` and read by :mod:`render.game_palettes` (which says why a
palette per game). When ``tests/test_picture_encoding.py`` says the file no longer fits:

    python -m render.palette --write

writes it from pictures of seeded random games at every player count (public pictures and
the first seat's private one), so the same code writes the same file.
"""

from __future__ import annotations

import argparse
import json
from importlib import resources

from PIL import Image

from render.game_palettes import FILE
from render.registry import render_image


def learn_palette(images: list[Image.Image]) -> bytes:
    """256 colours for ``images``: the octree over a mosaic of the whole pictures (flat
    colours keep their exact values; blends get the remaining entries). Whole pictures, not
    samples: a mosaic of half-size samples left 10x more pixels off by more than
    :data:`render.common.FIT_ERROR` (Maharani's tile edges)."""
    samples = [im.convert("RGB") for im in images]
    mosaic = Image.new("RGB", (max(s.width for s in samples), sum(s.height for s in samples)))
    y = 0
    for s in samples:
        mosaic.paste(s, (0, y))
        y += s.height
    learnt = mosaic.quantize(256, method=Image.Quantize.FASTOCTREE)
    return bytes(learnt.getpalette() or [])


def sample_pictures(game_id: str, seeds: tuple[int, ...] = (3,)) -> list[Image.Image]:
    """Pictures of ``game_id`` to learn from: seven states spread over a seeded random game
    (the last one included) per player count and seed, public and first seat's view."""
    from rules import get_game  # only the writer needs the rules
    from rules.playout import random_playout

    game = get_game(game_id)
    # computers among them: their chips' robot heads are drawn in every band
    names = ["Alice", "Bob", "🤖 Ada (normal)", "Dénes", "Łucja", "🤖 Alan (hard)"]
    pictures: list[Image.Image] = []
    for players in range(game.min_players, game.max_players + 1):
        for seed in seeds:
            states: list = []
            random_playout(game, players, seed, on_step=lambda old, *_, out=states: out.append(old))
            picks = states[:: max(1, len(states) // 6)][:6] + states[-1:]
            for state in picks:
                for seat in (None, 0):
                    view = game.view(state, seat)
                    pictures.append(render_image(game_id, view, names[:players], seat))
    return pictures


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--write", action="store_true", help=f"write render/{FILE}")
    args = parser.parse_args(argv)
    from rules.registry import game_ids

    palettes = {gid: learn_palette(sample_pictures(gid)).hex() for gid in sorted(game_ids())}
    text = json.dumps(palettes, indent=1) + "\n"
    if args.write:
        path = resources.files("render").joinpath(FILE)
        with resources.as_file(path) as real:
            real.write_text(text, encoding="utf-8")
        print(f"wrote {len(palettes)} palettes to {real}")
    else:
        print(text)


if __name__ == "__main__":
    main()
