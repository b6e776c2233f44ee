"""The local Discord refuses the layout messages (Components V2) Discord refuses, one test
per rule, and reads the ones it accepts as a member would.

Requests go straight over HTTP as any client sends them; each refusal is checked for
Discord's status, code and the field its errors tree names (:func:`form_error`).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

from tests.fakediscord import FakeDiscord
from tests.fakediscord.rest import Rest, form_error

V2 = 1 << 15
EPHEMERAL = 1 << 6
LEGACY = "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2"


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord(routes={}) as f:
        yield f


def post(fake: FakeDiscord) -> str:
    return f"/channels/{fake.CHANNEL_ID}/messages"


def text(content: str = "Round 3") -> dict[str, Any]:
    return {"type": 10, "content": content}


def button(custom_id: str = "b", label: str = "Move…") -> dict[str, Any]:
    return {"type": 2, "style": 1, "label": label, "custom_id": custom_id}


def row(*children: dict[str, Any]) -> dict[str, Any]:
    return {"type": 1, "components": list(children)}


def container(*children: dict[str, Any]) -> dict[str, Any]:
    return {"type": 17, "components": list(children)}


def gallery(count: int = 1, alt: str = "Azul board", name: str = "board.png") -> dict[str, Any]:
    item = {"media": {"url": f"attachment://{name}"}, "description": alt}
    return {"type": 12, "items": [dict(item) for _ in range(count)]}


def layout(*components: dict[str, Any], flags: int = V2) -> dict[str, Any]:
    return {"flags": flags, "components": list(components)}


def turn_post() -> dict[str, Any]:
    """A turn post as issue 43 describes it: one container with the header, the board
    with its alt text, a section with a button, a separator and the controls."""
    select = {
        "type": 3,
        "custom_id": "pick",
        "placeholder": "Pick a tile",
        "options": [{"label": "Blue", "value": "b"}, {"label": "Red", "value": "r"}],
    }
    return layout(
        container(
            text("## Azul · round 2"),
            text("Your move: <@1> · <t:1767225600:R>"),
            gallery(alt="Azul board, round 2"),
            {
                "type": 9,
                "components": [text("Last move: Ann took 2 blue")],
                "accessory": button("hist", "History"),
            },
            {"type": 14, "divider": True, "spacing": 1},
            row(button("tp:1", "Move…"), button("hint", "Hint")),
            row(select),
        )
    )


# ----- refusals ------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "field, value",
    [("content", "hi"), ("embeds", [{"title": "x"}]), ("poll", {"x": 1}), ("sticker_ids", ["1"])],
)
async def test_the_flag_refuses_content_embeds_poll_and_stickers(
    fake: FakeDiscord, http: Rest, field: str, value: Any
) -> None:
    answer = await http("POST", post(fake), {**layout(text()), field: value})
    assert form_error(answer, field) == LEGACY
    assert "cannot be used when using MessageFlags.IS_COMPONENTS_V2" in str(answer[1])


async def test_at_most_40_components_counted_through_nesting(fake: FakeDiscord, http: Rest) -> None:
    """A container with 40 text displays is 41 components: refused; with 39, 40: fine."""
    answer = await http("POST", post(fake), layout(container(*[text("x")] * 40)))
    assert form_error(answer, "components") == "BASE_TYPE_MAX_LENGTH"
    assert "40 or fewer" in str(answer[1])
    assert (await http("POST", post(fake), layout(container(*[text("x")] * 39))))[0] == 200


async def test_at_most_4000_characters_of_text_displays(fake: FakeDiscord, http: Rest) -> None:
    over = layout(text("a" * 2000), container(text("b" * 2001)))
    assert form_error(await http("POST", post(fake), over), "components") == (
        "BASE_TYPE_MAX_LENGTH"
    )
    exactly = layout(text("a" * 1999), container(text("b" * 2001)))  # one may pass 2,000
    assert (await http("POST", post(fake), exactly))[0] == 200


@pytest.mark.parametrize("count", [0, 11])
async def test_media_gallery_holds_1_to_10_items(fake: FakeDiscord, http: Rest, count: int) -> None:
    body = layout(gallery(count))
    answer = await http("POST", post(fake), body, [("board.png", b"png")])
    assert form_error(answer, "components", 0, "items") == "BASE_TYPE_BAD_LENGTH"
    ten = await http("POST", post(fake), layout(gallery(10)), [("board.png", b"png")])
    assert ten[0] == 200


async def test_media_descriptions_at_most_1024(fake: FakeDiscord, http: Rest) -> None:
    """The alt text of a gallery item and of a thumbnail: 1,024 characters at most."""
    long = "a" * 1025
    answer = await http("POST", post(fake), layout(gallery(alt=long)), [("board.png", b"p")])
    assert form_error(answer, "components", 0, "items", 0, "description") == (
        "BASE_TYPE_MAX_LENGTH"
    )
    thumb = {"type": 11, "media": {"url": "https://x.org/a.png"}, "description": long}
    section = {"type": 9, "components": [text()], "accessory": thumb}
    answer = await http("POST", post(fake), layout(section))
    assert form_error(answer, "components", 0, "accessory", "description") == (
        "BASE_TYPE_MAX_LENGTH"
    )
    ok = await http("POST", post(fake), layout(gallery(alt="a" * 1024)), [("board.png", b"p")])
    assert ok[0] == 200


SECTION = {"type": 9, "components": [text()], "accessory": button()}
#: A misplaced or unknown component, where Discord names it, and what it allows there.
MISNESTED = [
    ([{"type": 99}], ("components", 0), "(1, 9, 10, 12, 13, 14, 17)"),
    ([{"type": 11, "media": {"url": "https://x.org/a.png"}}], ("components", 0), "(1, 9,"),
    ([button()], ("components", 0), "(1, 9, 10"),
    ([container(container(text()))], ("components", 0, "components", 0), "(1, 9, 10, 12, 13, 14)"),
    ([row(text())], ("components", 0, "components", 0), "(2, 3, 5, 6, 7, 8)"),
    ([{**SECTION, "accessory": text()}], ("components", 0, "accessory"), "(2, 11)"),
    ([{**SECTION, "components": [button()]}], ("components", 0, "components", 0), "(10,)"),
    ([{"type": 4, "custom_id": "t", "style": 1, "label": "x"}], ("components", 0), "(1, 9"),
]


@pytest.mark.parametrize("components, where, allowed", MISNESTED)
async def test_unknown_or_misnested_components(
    fake: FakeDiscord, http: Rest, components: list[dict[str, Any]], where: tuple, allowed: str
) -> None:
    answer = await http("POST", post(fake), layout(*components))
    assert form_error(answer, *where) == "UNION_TYPE_CHOICES"
    assert f"must be one of {allowed}" in str(answer[1])


async def test_a_section_needs_1_to_3_texts_and_an_accessory(fake: FakeDiscord, http: Rest) -> None:
    four = {**SECTION, "components": [text()] * 4}
    answer = await http("POST", post(fake), layout(four))
    assert form_error(answer, "components", 0, "components") == "BASE_TYPE_BAD_LENGTH"
    bare = {"type": 9, "components": [text()]}
    answer = await http("POST", post(fake), layout(bare))
    assert form_error(answer, "components", 0, "accessory") == "BASE_TYPE_REQUIRED"


async def test_without_the_flag_layout_types_are_refused(fake: FakeDiscord, http: Rest) -> None:
    """Discord's answer for a layout component in a legacy message:
    ``UNION_TYPE_CHOICES`` 'Value of field "type" must be one of (1,).'"""
    answer = await http("POST", post(fake), layout(text(), flags=0))
    assert form_error(answer, "components", 0) == "UNION_TYPE_CHOICES"
    assert "must be one of (1,)" in str(answer[1])


async def test_buttons_and_selects_keep_their_rules_when_nested(
    fake: FakeDiscord, http: Rest
) -> None:
    """Custom ids are unique across the whole message; labels at most 80, wherever the
    button stands."""
    twice = layout(container(row(button("same"))), {**SECTION, "accessory": button("same")})
    answer = await http("POST", post(fake), twice)
    assert form_error(answer, "components", 1, "accessory", "custom_id") == (
        "COMPONENT_CUSTOM_ID_DUPLICATED"
    )
    long = layout(container({**SECTION, "accessory": button(label="L" * 81)}))
    answer = await http("POST", post(fake), long)
    assert form_error(answer, "components", 0, "components", 0, "accessory", "label") == (
        "BASE_TYPE_MAX_LENGTH"
    )


async def test_attachment_urls_name_a_file_of_the_message(fake: FakeDiscord, http: Rest) -> None:
    answer = await http(
        "POST", post(fake), layout(gallery(name="other.png")), [("board.png", b"p")]
    )
    assert form_error(answer, "components", 0, "items", 0, "media", "url")
    file_by_link = {"type": 13, "file": {"url": "https://x.org/rules.pdf"}}
    answer = await http("POST", post(fake), layout(file_by_link))
    assert form_error(answer, "components", 0, "file", "url")
    named = layout(gallery(), {"type": 13, "file": {"url": "attachment://board.png"}})
    assert (await http("POST", post(fake), named, [("board.png", b"p")]))[0] == 200


async def test_the_flag_cannot_be_removed_on_edit(fake: FakeDiscord, http: Rest) -> None:
    _, created, _ = await http("POST", post(fake), layout(text()))
    path = f"{post(fake)}/{created['id']}"
    answer = await http("PATCH", path, {"flags": 0, "components": [row(button())]})
    assert form_error(answer, "flags") == "MESSAGE_CANNOT_REMOVE_COMPONENTS_V2_FLAG"
    # without ``flags`` the message stays a layout one, so content is still refused
    assert form_error(await http("PATCH", path, {"content": "x"}), "content") == LEGACY
    kept = await http("PATCH", path, {"components": [text("edited")]})
    assert kept[0] == 200 and kept[1]["flags"] & V2
    assert fake.messages[int(created["id"])].content == "edited"


async def test_setting_the_flag_on_edit_clears_content(fake: FakeDiscord, http: Rest) -> None:
    """ "When the IS_COMPONENTS_V2 flag is set, any of the used content … fields must have
    their values reset to empty … Failing to do this will result in a 400"."""
    _, created, _ = await http("POST", post(fake), {"content": "classic"})
    path = f"{post(fake)}/{created['id']}"
    upgrade = layout(text("now a layout"))
    assert form_error(await http("PATCH", path, upgrade), "content") == LEGACY
    done = await http("PATCH", path, {**upgrade, "content": None})
    assert done[0] == 200 and done[1]["flags"] & V2 and done[1]["content"] == ""


async def test_a_deferral_cannot_carry_the_flag(fake: FakeDiscord, http: Rest) -> None:
    """A DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE may carry only EPHEMERAL: a layout reply is
    made by editing the original (the next test)."""
    inter = await fake.slash_raw(fake.member("Ann"))
    path = f"/interactions/{inter.id}/{inter.token}/callback"
    answer = await http("POST", path, {"type": 5, "data": {"flags": V2}})
    assert answer[0] == 400 and answer[1]["code"] == 50035 and "flags" in str(answer[1])


async def test_first_follow_up_after_a_deferral_edits_the_original(
    fake: FakeDiscord, http: Rest
) -> None:
    """The "thinking" message becomes the layout reply (keeping the deferral's
    visibility, whatever flag the follow-up sends); the second follow-up is new."""
    inter = await fake.slash_raw(fake.member("Ann"))
    callback = f"/interactions/{inter.id}/{inter.token}/callback"
    await http("POST", callback, {"type": 5, "data": {"flags": EPHEMERAL}})
    hook = f"/webhooks/{fake.APP_ID}/{inter.token}"
    _, first, _ = await http("POST", hook, layout(text("your hand")))
    assert first["id"] == str(inter.original_id)
    assert first["flags"] & V2 and first["flags"] & EPHEMERAL and not first["flags"] & 128
    _, second, _ = await http("POST", hook, layout(text("and more")))
    assert second["id"] != first["id"]
    assert inter.texts() == ["your hand", "and more"]


async def test_the_checks_run_wherever_a_message_is_made(fake: FakeDiscord, http: Rest) -> None:
    """The same refused layout (content with the flag) at every endpoint that creates or
    edits a message: a channel post, a DM, an interaction response, UPDATE_MESSAGE, a
    follow-up, an original-response edit, a channel edit."""
    bad = {**layout(text()), "content": "no"}
    ann = fake.member("Ann")
    _, dm, _ = await http("POST", "/users/@me/channels", {"recipient_id": ann["id"]})
    _, made, _ = await http("POST", post(fake), layout(row(button())))
    inter = await fake.slash_raw(ann)
    callback = f"/interactions/{inter.id}/{inter.token}/callback"
    clicked = await fake.click(ann, fake.messages[int(made["id"])], "b")
    hook = f"/webhooks/{fake.APP_ID}/{inter.token}"
    answers = [
        await http("POST", f"/channels/{dm['id']}/messages", bad),
        await http("POST", callback, {"type": 4, "data": bad}),
        await http(
            "POST", f"/interactions/{clicked.id}/{clicked.token}/callback", {"type": 7, "data": bad}
        ),
    ]
    await http("POST", callback, {"type": 4, "data": layout(text("ok"))})
    answers += [
        await http("POST", hook, bad),
        await http("PATCH", f"{hook}/messages/@original", bad),
        await http("PATCH", f"{post(fake)}/{made['id']}", bad),
    ]
    assert [form_error(a, "content") for a in answers] == [LEGACY] * 6


# ----- accepted and readable -----------------------------------------------------------------
async def test_a_layout_post_is_accepted_and_read_like_a_classic_one(
    fake: FakeDiscord, http: Rest
) -> None:
    status, created, _ = await http("POST", post(fake), turn_post(), [("board.png", b"png")])
    assert status == 200 and created["content"] == ""
    m = fake.posts(fake.CHANNEL_ID)[-1]
    assert m.layout and m.content.splitlines() == [
        "## Azul · round 2",
        "Your move: <@1> · <t:1767225600:R>",
        "Last move: Ann took 2 blue",
    ]
    assert m.custom_ids == ["hist", "tp:1", "hint", "pick"]
    assert m.labels()["hist"] == "History" and m.labels()["pick"] == "Pick a tile"
    assert m.options("pick") == ["b", "r"]
    assert m.media()[0].filename == "board.png"
    assert m.alt_texts() == {"board.png": "Azul board, round 2"}
    ids = [c["id"] for c in created["components"][0]["components"]]
    assert ids == sorted(set(ids)) and 0 not in ids  # numbered, as Discord stores them
    clicked = await fake.click(fake.member("Ann"), m, "hist")  # a section's accessory
    assert clicked.data == {"custom_id": "hist", "component_type": 2}


async def test_classic_messages_read_as_before(fake: FakeDiscord, http: Rest) -> None:
    body = {"content": "Your move", "components": [row(button("tp:1"), button("h", "Hint"))]}
    assert (await http("POST", post(fake), body))[0] == 200
    m = fake.posts(fake.CHANNEL_ID)[-1]
    assert not m.layout and m.content == "Your move" and m.raw_content == "Your move"
    assert m.custom_ids == ["tp:1", "h"] and m.labels() == {"tp:1": "Move…", "h": "Hint"}
    assert m.components == body["components"]  # stored as sent, no ids added
