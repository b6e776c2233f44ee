"""The bot's metrics, in Prometheus's text exposition format (version 0.0.4).

The parts of the bot count with one-line calls (``metrics.MOVES.inc(game_id)``); the HTTP
endpoint (:mod:`bot.ops.server`) writes :data:`REGISTRY` out when scraped. Gauges that
describe the database (the outbox) or another part (computer turns) are read at scrape time
(:mod:`bot.ops.probes`), not kept up to date on every change.

Why our own small registry and not ``prometheus_client``: it is not installed here, and
what we need is small — counters (one with a label), gauges, one histogram and the text
format — while its HTTP server runs in a thread of its own, where the reads at scrape time
(coroutines on the bot's event loop and database pool) would have to be sent back to the
loop and waited for. Here everything runs on the loop, and nothing is added to the
dependencies. The format: https://prometheus.io/docs/instrumenting/exposition_formats/
(``# HELP``, ``# TYPE``, one sample per line, a histogram's cumulative ``_bucket`` lines
with ``le`` and its ``_sum`` and ``_count``).

Why nothing here imports the bot: the match service, the delivery worker and the computer
driver import this module; it must stay a leaf (no cycle, no database, no web server).
"""

from __future__ import annotations

import math
import time
from bisect import bisect_left
from collections.abc import Awaitable, Callable, Iterator
from functools import wraps
from typing import ParamSpec, TypeVar

P = ParamSpec("P")
R = TypeVar("R")

#: The Content-Type of the text format the endpoint answers with.
CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"


def number(value: float) -> str:
    """A sample value as the format writes it (Go's float syntax: ``+Inf``, ``NaN``)."""
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "+Inf" if value > 0 else "-Inf"
    if float(value).is_integer() and abs(value) < 2**53:
        return str(int(value))
    return repr(float(value))


def _label_value(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")


def _labels(pairs: dict[str, str]) -> str:
    if not pairs:
        return ""
    return "{" + ",".join(f'{k}="{_label_value(v)}"' for k, v in pairs.items()) + "}"


class Metric:
    """One metric family: its name, help text and type, and its sample lines."""

    kind = "untyped"

    def __init__(self, name: str, help_text: str) -> None:
        self.name = name
        self.help = help_text

    def samples(self) -> Iterator[str]:
        raise NotImplementedError

    def exposition(self) -> str:
        help_text = self.help.replace("\\", "\\\\").replace("\n", "\\n")
        head = f"# HELP {self.name} {help_text}\n# TYPE {self.name} {self.kind}\n"
        return head + "".join(line + "\n" for line in self.samples())


class CounterMetric(Metric):
    """A count that only goes up, per value of its one optional label."""

    kind = "counter"

    def __init__(self, name: str, help_text: str, label: str | None = None) -> None:
        super().__init__(name, help_text)
        self.label = label
        self._values: dict[str, float] = {} if label else {"": 0.0}

    def inc(self, label_value: str = "", amount: float = 1.0) -> None:
        if amount < 0:
            raise ValueError("a counter only goes up")
        self._values[label_value] = self._values.get(label_value, 0.0) + amount

    def value(self, label_value: str = "") -> float:
        return self._values.get(label_value, 0.0)

    def samples(self) -> Iterator[str]:
        for key in sorted(self._values):
            labels = _labels({self.label: key}) if self.label else ""
            yield f"{self.name}{labels} {number(self._values[key])}"


class GaugeMetric(Metric):
    """A value that goes up and down: set by the bot, or read from ``function`` whenever
    the metrics are written out (``set_function``)."""

    kind = "gauge"

    def __init__(self, name: str, help_text: str) -> None:
        super().__init__(name, help_text)
        self._value = 0.0
        self._function: Callable[[], float] | None = None

    def set(self, value: float) -> None:
        self._value = float(value)

    def set_function(self, function: Callable[[], float] | None) -> None:
        self._function = function

    def value(self) -> float:
        if self._function is not None:
            try:
                return float(self._function())
            except Exception:  # a probe that fails says "unknown", not a stale number
                return math.nan
        return self._value

    def samples(self) -> Iterator[str]:
        yield f"{self.name} {number(self.value())}"


class HistogramMetric(Metric):
    """Observations counted in cumulative buckets (upper bounds ``le``), with their sum."""

    kind = "histogram"

    def __init__(self, name: str, help_text: str, buckets: tuple[float, ...]) -> None:
        super().__init__(name, help_text)
        self.buckets = tuple(sorted(buckets))
        self._counts = [0] * (len(self.buckets) + 1)  # the last: above every bound
        self.sum = 0.0
        self.count = 0

    def observe(self, value: float) -> None:
        self._counts[bisect_left(self.buckets, value)] += 1
        self.sum += value
        self.count += 1

    def samples(self) -> Iterator[str]:
        running = 0
        for bound, n in zip((*self.buckets, math.inf), self._counts, strict=True):
            running += n
            yield f'{self.name}_bucket{{le="{number(bound)}"}} {running}'
        yield f"{self.name}_sum {number(self.sum)}"
        yield f"{self.name}_count {self.count}"


class Registry:
    """The metrics of this process, written out in the order they were made."""

    def __init__(self) -> None:
        self._metrics: dict[str, Metric] = {}

    def add(self, metric: Metric) -> Metric:
        if metric.name in self._metrics:
            raise ValueError(f"metric {metric.name} twice")
        self._metrics[metric.name] = metric
        return metric

    def counter(self, name: str, help_text: str, label: str | None = None) -> CounterMetric:
        counter = CounterMetric(name, help_text, label)
        self.add(counter)
        return counter

    def gauge(self, name: str, help_text: str) -> GaugeMetric:
        gauge = GaugeMetric(name, help_text)
        self.add(gauge)
        return gauge

    def histogram(self, name: str, help_text: str, buckets: tuple[float, ...]) -> HistogramMetric:
        histogram = HistogramMetric(name, help_text, buckets)
        self.add(histogram)
        return histogram

    def exposition(self) -> str:
        return "".join(metric.exposition() for metric in self._metrics.values())


REGISTRY = Registry()

MOVES = REGISTRY.counter(
    "tessera_moves_total", "Moves committed by this process, by game.", label="game"
)
#: Why these bounds: a move answers in about 1-15 ms when all is well (README,
#: Performance); the upper ones show a database that stalls.
MOVE_SECONDS = REGISTRY.histogram(
    "tessera_move_seconds",
    "Seconds service.play took, from the click (or typed move) to its committed answer.",
    (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0),
)
OUTBOX_BACKLOG = REGISTRY.gauge(
    "tessera_outbox_backlog",
    "Posts and DMs due and not yet sent (the whole database: every process reads the same).",
)
OUTBOX_OLDEST_AGE = REGISTRY.gauge(
    "tessera_outbox_oldest_age_seconds",
    "Seconds the oldest due unsent post has waited since it was due (0: none waits).",
)
OUTBOX_LAPSED = REGISTRY.gauge(
    "tessera_outbox_lapsed_claims",
    "Unsent posts whose claim ran out (a process died or stalled): they will be sent again.",
)
POSTS_RESENT = REGISTRY.counter(
    "tessera_posts_resent_total",
    "Deliveries by this process of a post or DM that had been tried before.",
)
DISCORD_429 = REGISTRY.counter(
    "tessera_discord_429_total",
    "429 Too Many Requests answers from Discord, by X-RateLimit-Scope "
    "(user, global, shared; none: Cloudflare's own limit).",
    label="scope",
)
COMPUTER_TURNS_PENDING = REGISTRY.gauge(
    "tessera_computer_turns_pending",
    "Computer turns this process has found waiting and not yet played.",
)
LOOP_LAG = REGISTRY.gauge(
    "tessera_event_loop_lag_seconds",
    "How late the event loop ran the latest tick of a timer (a blocked loop delays clicks).",
)
LOOP_LAG_MAX = REGISTRY.gauge(
    "tessera_event_loop_lag_max_seconds",
    "The largest event-loop lag of the ticks of the last minute.",
)
DATABASE_UP = REGISTRY.gauge(
    "tessera_database_up",
    "1 when the database answered this scrape's outbox read in time, else 0.",
)


def delivering(attempts: int) -> None:
    """The delivery worker sends an outbox item tried ``attempts`` times before: a re-send
    when that is more than none (after a 5xx, a timeout, a 429, a refused DM channel)."""
    if attempts:
        POSTS_RESENT.inc()


def timed(
    histogram: HistogramMetric, function: Callable[P, Awaitable[R]]
) -> Callable[P, Awaitable[R]]:
    """``function`` (a coroutine function), observing how long each call took, whether it
    answered or refused (a refusal is an answer too: its time is the player's wait)."""

    @wraps(function)
    async def observed(*args: P.args, **kwargs: P.kwargs) -> R:
        start = time.perf_counter()
        try:
            return await function(*args, **kwargs)
        finally:
            histogram.observe(time.perf_counter() - start)

    return observed
