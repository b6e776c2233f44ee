"""The real bot when every route it uses is rate-limited per route
(``tests/fakediscord/buckets.py``, one request per half second on each): the moves' posts,
the folded plies' edits, the DMs and the answers to commands and clicks all arrive, in
order and once; the 429s (those of the buckets, and one more injected on every route) are
answered by waiting, never by a lost or doubled message. discord.py follows the
``X-RateLimit-*`` headers, so the buckets alone rarely answer 429: they shape the traffic.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from tests.fakediscord import FakeDiscord
from tests.fakediscord.buckets import ROUTES, tight
from tests.fakediscord.sizes import MAX_REQUEST
from tests.test_e2e_discord import Table, all_in_order, in_order, start_bot


async def test_every_route_limited_everything_arrives(tmp_path: Path) -> None:
    async with FakeDiscord(routes=tight(0.5)) as fake:
        bot = await start_bot(fake, tmp_path / "bot.db", sync=True)
        try:
            ann, ben = fake.member("Ann"), fake.member("Ben")
            table = Table(fake, [ann, ben])
            for who in (ann, ben):  # turn alerts by DM: the DM route and its channel posts
                await table.done(await fake.slash(who, "notify", mode="dm"))
            for route in ROUTES:  # and on top of the buckets, a 429 on every route
                method, template = route.split(" ", 1)
                fake.inject(method, template, 429, 1, retry_after=0.3)
            await table.open("maharani")
            await table.play(8)
            await table.turn()
            assert all_in_order(table, table.ply)
            assert len(in_order(table)) < table.ply  # some plies were folded: edits
            nonces = [m.nonce for m in fake.messages.values() if m.nonce]
            assert len(nonces) == len(set(nonces))  # nothing doubled
            assert fake.dms(ann) and fake.dms(ben)
            used = {f"{r.method} {r.route}" for r in fake.records}
            assert "PATCH /channels/{channel_id}/messages/{message_id}" in used
            unbucketed = (
                used
                - set(ROUTES)
                - {
                    "GET /users/@me",
                    "GET /oauth2/applications/@me",
                    "GET /gateway/bot",
                    "POST /interactions/{interaction_id}/{token}/callback",
                }
            )
            assert not unbucketed  # every route the bot uses has its bucket
            limited = Counter(f"{r.method} {r.route}" for r in fake.records if r.status == 429)
            for route in used & set(ROUTES) - {"PUT /applications/{application_id}/commands"}:
                assert limited[route] >= 1, (route, limited)  # each route's 429s were waited out
            # within Discord's sizes (the local Discord refuses more: tests/fakediscord/sizes.py)
            biggest = max(sum(n for _, n in r.files) for r in fake.records)
            assert 0 < biggest < MAX_REQUEST // 10
            assert not any(
                (r.body or {}).get("embeds") for r in fake.records if isinstance(r.body, dict)
            )
            failed = [r for r in fake.records if r.status >= 400 and r.status != 429]
            assert not failed, [(r.route, r.status, r.error_code) for r in failed]
        finally:
            await bot.stop()
