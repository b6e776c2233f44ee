"""Measure what a renderer draws: every text's font size and box, and which texts form the
header band. Used by the legibility tests (render/ must not carry test hooks, so the probe
wraps Pillow's ``ImageDraw.text`` and the band builder from outside while one picture is
drawn).

Cached static layers are drawn once per process: :func:`fresh_caches` clears a renderer
module's caches so their texts are drawn (and measured) again.
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from PIL import Image, ImageDraw

import render.chart
import render.common
import render.header
import render.replay
from render.registry import get_drawer, renderer_target


@dataclass(frozen=True, slots=True)
class DrawnText:
    text: str
    size: int
    box: tuple[int, int, int, int]
    canvas: tuple[int, int]
    image_id: int


@dataclass(frozen=True, slots=True)
class FittedText:
    """One call of ``render.common.fit_text``: a text, the room it was given, and what was
    drawn (shorter, with "…", when it did not fit)."""

    text: str
    shown: str
    size: int
    width: float
    room: int

    @property
    def clipped(self) -> bool:
        return self.shown != self.text


@dataclass(slots=True)
class Probe:
    texts: list[DrawnText] = field(default_factory=list)
    fitted: list[FittedText] = field(default_factory=list)
    band_ids: set[int] = field(default_factory=set)
    band_height: int = 0
    #: every image drawn on, kept alive so no later image reuses its id
    images: list[Image.Image] = field(default_factory=list)

    def band_texts(self) -> list[DrawnText]:
        return [x for x in self.texts if x.image_id in self.band_ids]


@contextlib.contextmanager
def probing() -> Iterator[Probe]:
    probe = Probe()
    original_text = ImageDraw.ImageDraw.text
    original_band = render.header.header_band

    def text(self: ImageDraw.ImageDraw, xy: Any, text: Any, *args: Any, **kwargs: Any) -> None:
        # ImageDraw.text(xy, text, fill=None, font=None, anchor=None, ...)
        fnt = kwargs["font"] if "font" in kwargs else (args[1] if len(args) > 1 else None)
        anchor = kwargs["anchor"] if "anchor" in kwargs else (args[2] if len(args) > 2 else None)
        if fnt is not None and str(text).strip():
            box = self.textbbox(
                xy, text, font=fnt, anchor=anchor, stroke_width=kwargs.get("stroke_width", 0)
            )
            image = self._image  # type: ignore[attr-defined]
            probe.images.append(image)
            probe.texts.append(
                DrawnText(
                    str(text),
                    int(fnt.size),
                    tuple(int(v) for v in box),  # type: ignore[arg-type]
                    image.size,
                    id(image),
                )
            )
        return original_text(self, xy, text, *args, **kwargs)

    @functools.wraps(original_band)
    def band(*args: Any, **kwargs: Any) -> Image.Image:
        img = original_band(*args, **kwargs)
        probe.band_ids.add(id(img))
        probe.images.append(img)
        probe.band_height = img.height
        return img

    original_fit = render.common.fit_text

    @functools.wraps(original_fit)
    def fit(text: str, fnt: Any, max_width: int) -> str:
        shown = original_fit(text, fnt, max_width)
        probe.fitted.append(
            FittedText(text, shown, int(fnt.size), float(fnt.getlength(text)), int(max_width))
        )
        return shown

    ImageDraw.ImageDraw.text = text  # type: ignore[method-assign]
    modules = _renderer_modules()
    saved = {m: getattr(m, "header_band", None) for m in modules}
    for m in modules:
        if saved[m] is not None:
            m.header_band = band
    # every module that imported fit_text by name, and render.common itself (wrap_text)
    fitters = [render.common, render.header, render.chart, render.replay, *modules]
    saved_fit = {m: getattr(m, "fit_text", None) for m in fitters}
    for m in fitters:
        if saved_fit[m] is not None:
            m.fit_text = fit
    try:
        yield probe
    finally:
        ImageDraw.ImageDraw.text = original_text  # type: ignore[method-assign]
        for m, fn in saved.items():
            if fn is not None:
                m.header_band = fn
        for m, fn in saved_fit.items():
            if fn is not None:
                m.fit_text = fn


def _renderer_modules() -> list[Any]:
    return [m for g in ("azul", "taj-mahal", "maharani", "pastiche") for m in _modules_of(g)]


def _modules_of(game_id: str) -> list[Any]:
    """The game's renderer module, and each module of it when it is a package
    (``render.pastiche``): the names to wrap and the caches to clear live there."""
    import importlib
    import pkgutil

    module = importlib.import_module(renderer_target(game_id).split(":")[0])
    inside = pkgutil.iter_modules(getattr(module, "__path__", []), f"{module.__name__}.")
    return [module, *(importlib.import_module(info.name) for info in inside)]


def fresh_caches(game_id: str) -> None:
    """Forget the game's cached layers and sprites, so the next picture draws every text."""
    for module in _modules_of(game_id):
        for value in vars(module).values():
            if callable(getattr(value, "cache_clear", None)):
                value.cache_clear()


def draw_probed(
    game_id: str, view: dict[str, Any], names: list[str], seat: int | None, lang: str
) -> tuple[Image.Image, Probe]:
    with probing() as probe:
        img = get_drawer(game_id)(view, names, seat, lang)
    return img, probe
