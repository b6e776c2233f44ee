"""``/game sub`` and its buttons: hand your seat on, or vote a substitute into a deserted
seat (the rules are in :mod:`bot.matches.substitutes`; the service commits).

Why the offer is the command's own public reply (not an outbox post): its buttons must
hang under it, and a reply is posted at once; what follows (votes, the handover, a
decline) the service queues in the outbox like every other post. The buttons carry match,
seat and offer id, so they keep working across restarts and a stale one answers in words.

Leaving the server: with the privileged Server Members intent on, Discord tells the bot
(``on_raw_member_remove``) and the others are invited to vote. Without it — the default —
the bot learns it when someone proposes a substitute for a person's seat: it asks Discord
for that member, and "Unknown Member" (404) marks them as gone.
"""

from __future__ import annotations

import logging

import discord

from bot.computers.players import is_computer
from bot.discord.cards import Card, offer_card, settled
from bot.discord.common import UserError, answer, bot_of, loc, match_here, same_server, user_of
from bot.matches.reports import User
from bot.matches.substitutes import SubState, answer_text, post_text, voters
from render.words.catalogue import t

log = logging.getLogger(__name__)

#: Offers and votes whose buttons have nothing left to do.
FINISHED = ("done", "failed", "declined", "withdrawn")


def sub_card(state: SubState, locale: str | discord.Locale | None, ping: list[str]) -> Card:
    """The offer's or vote's card: its words, whom it asks, and its buttons — Take /
    Decline for the named person, Yes / No for a vote, Withdraw for its maker."""
    p = state.proposal
    actions: list[tuple[str, discord.ButtonStyle]] = []
    if p["kind"] == "vote":
        actions += [("yes", discord.ButtonStyle.success), ("no", discord.ButtonStyle.danger)]
    if p["to"] is not None:
        actions += [
            ("take", discord.ButtonStyle.primary),
            ("decline", discord.ButtonStyle.secondary),
        ]
    actions.append(("withdraw", discord.ButtonStyle.secondary))
    buttons = [
        (
            f"tu:{action}:{state.match.id}:{p['seat']}:{p['id']}",
            t(f"btn.sub_{'accept' if action == 'take' else action}", locale),
            style,
        )
        for action, style in actions
    ]
    return offer_card(
        state.match.game_name,
        state.match.id,
        locale,
        text=post_text(state, locale),
        ping=ping,
        buttons=buttons,
    )


async def notice_departure(interaction: discord.Interaction, match_id: int, seat: int) -> None:
    """Before a vote on a person's seat: ask Discord whether they are still a member. An
    "Unknown Member" answer (404) means they left, which opens their seat to a vote; a
    member who was marked gone has come back, and their seat is theirs again."""
    service = bot_of(interaction).service
    info = await service.info(match_id)
    if not 0 <= seat < len(info.seats) or interaction.guild_id is None:
        return
    holder = info.seats[seat].user_id
    if is_computer(holder) or holder == str(interaction.user.id) or not holder.isdigit():
        return
    try:
        await bot_of(interaction).http.get_member(interaction.guild_id, int(holder))
    except discord.NotFound:
        log.info("member %s of match %s has left the server", holder, match_id)
        await service.set_left(match_id, holder)
    except (discord.HTTPException, discord.RateLimited):
        log.warning("could not look up member %s", holder, exc_info=True)
    else:
        await service.set_left(match_id, holder, left=False)


async def substitute_command(
    interaction: discord.Interaction,
    new: discord.User | discord.Member | None,
    seat: int | None,
    computer: bool | None,
    match: int | None,
) -> None:
    bot = bot_of(interaction)
    user = user_of(interaction)
    match_id = await match_here(interaction, match)
    candidate = None
    if new is not None:
        if new.bot:
            raise UserError("sub.bot")
        if computer:
            raise UserError("sub.one_or_other")
        candidate = User(str(new.id), new.display_name)
    if seat is None:
        if computer:
            raise UserError("sub.computer_needs_seat")
        if candidate is None:
            raise UserError("sub.need_someone")
        state = await bot.service.offer_seat(match_id, user, candidate)
    else:
        if not 1 <= seat <= 10:
            raise UserError("err.bad_number", name="seat", low=1, high=10)
        if candidate is None and not computer:
            raise UserError("sub.need_someone")
        await notice_departure(interaction, match_id, seat - 1)
        state = await bot.service.propose_sub(match_id, user, seat - 1, candidate)
    bot.computers.watch(match_id)
    bot.kick()
    if state.status in FINISHED:  # the only person seated voted a computer in
        await answer(interaction, answer_text(state, loc(interaction)))
        return
    public = interaction.guild_locale
    p = state.proposal
    ping = [p["to"]] if p["to"] else []
    if p["kind"] == "vote":
        people = voters(state.match.seats, state.match.settings)
        ping += [u for u in people if u not in p["yes"]]
    card = sub_card(state, public, ping)
    await interaction.response.send_message(
        view=card.view,
        allowed_mentions=discord.AllowedMentions(
            users=[discord.Object(int(u)) for u in dict.fromkeys(ping) if u.isdigit()]
        ),
    )


async def sub_click(
    interaction: discord.Interaction, action: str, match_id: int, seat: int, offer: str
) -> None:
    """A press on an offer's or vote's button: the service refuses whoever may not press
    it (privately, in words); a finished offer's buttons are taken off its post."""
    bot = bot_of(interaction)
    user = user_of(interaction)
    await same_server(interaction, match_id)
    service = bot.service
    if action in ("take", "decline"):
        state = await service.answer_sub(match_id, user, seat, offer, action == "take")
    elif action == "withdraw":
        state = await service.withdraw_sub(match_id, user, seat, offer)
    else:
        state = await service.vote_sub(match_id, user, seat, offer, action == "yes")
    bot.computers.watch(match_id)
    bot.kick()
    if state.status in FINISHED:  # the card stays, without its buttons
        await interaction.response.edit_message(view=settled(interaction.message))
    await answer(interaction, answer_text(state, loc(interaction), user.id))


async def member_left(bot: discord.Client, guild_id: int, user_id: int) -> None:
    """Discord says a member left (needs the Server Members intent): their running
    matches on that server invite a vote on their seat."""
    service = bot.service  # type: ignore[attr-defined]
    if await service.player_left(str(guild_id), str(user_id)):
        bot.kick()  # type: ignore[attr-defined]
