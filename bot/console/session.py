"""What every console command reads: the service, who is typing, the match looked at, the
console's language, the people known to this console; and how a command reads the words
typed after it.

Why the reading is here, shared: a console command is typed as free words, and issue 41
found commands that acted on the wrong thing because a word was read loosely — a match
number ignored (``/game start 9`` started the match looked at), a typo taken as a player's
name (``/game sub acept``). Every command reads its words through these helpers: a match is
named by number (``9``, ``#9`` or ``match=9``) or is the match looked at (``/use``); a
person is someone this console knows; any other word is refused in words, never dropped.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot.community.leagues import Leagues
from bot.computers.driver import ComputerDriver, Hint
from bot.matches.errors import ServiceError
from bot.matches.reports import User
from bot.matches.service import MatchService
from bot.settings import Settings
from render.words.catalogue import LANGUAGES, match_language, t
from render.words.posts import listing
from rules.registry import game_ids

#: Every status a stored match may have (the people of any of them are known).
STATUSES = ("lobby", "running", "finished", "aborted")


def help_text(lang: str | None) -> str:
    """/help in ``lang``: the commands as typed, their explanations in words."""
    return t("console.help", lang, games=", ".join(game_ids()), languages=" ".join(LANGUAGES))


def console_user(name: str) -> User:
    """The person typed as ``name`` (``alice`` and ``Alice`` are one person)."""
    name = name.lstrip("@")
    return User(f"console:{name.lower()}", name.capitalize() if name.islower() else name)


def no_game(word: str) -> ServiceError:
    """The refusal of a word that names no game, naming the games."""
    return ServiceError.said("svc.no_game", game=word, games=", ".join(game_ids()))


class Session:
    """The state of one console session and the reading of typed words."""

    def __init__(
        self,
        service: MatchService,
        picture_dir: Path,
        computers: ComputerDriver | None = None,
        settings: Settings | None = None,
    ) -> None:
        self.service = service
        #: where pictures, replays and records are written
        self.picture_dir = picture_dir
        #: defaults that /game settings shows (reminders, clock), as on Discord
        self.settings = settings or Settings(_env_file=None)  # type: ignore[call-arg]
        self.current: int | None = None
        self.user: User | None = None
        #: computer seats move after every line (their thinking runs in worker processes)
        self.computers = computers or ComputerDriver(service)
        #: the server's leagues (bot/community/leagues/), played through the same service
        self.leagues = Leagues(service)
        #: the latest /hint: (match, version, moves) so that /hint <n> can play one
        self.hints: tuple[int, int, list[Hint]] | None = None
        #: the language of this console's replies and hand pictures, and of the public
        #: words of the matches it opens (/lang hu)
        self.lang = "en"
        #: the languages people chose with /lang in this session, by user id (their
        #: private lines; anyone else reads them in the console's language)
        self.languages: dict[str, str] = {}
        #: who has typed in this session, by user id (their display names)
        self.people: dict[str, str] = {}

    @property
    def me(self) -> User:
        """Who is typing (every command but /help and /rules needs someone)."""
        assert self.user is not None
        return self.user

    def typing(self, name: str) -> None:
        """``name>`` starts a line: that person types now, and is known from now on."""
        self.user = console_user(name)
        self.people[self.user.id] = self.user.name

    async def public_language(self, match_id: int) -> str:
        return match_language((await self.service.info(match_id)).settings)

    # ----- matches ------------------------------------------------------------------------
    def need_match(self) -> int:
        if self.current is None:
            raise ServiceError.said("console.no_match")
        return self.current

    @staticmethod
    def match_number(word: str) -> int:
        """``9``, ``#9`` or ``match=9``; any other word is refused."""
        token = word.removeprefix("match=").lstrip("#")
        if not token.isdigit():
            raise ServiceError.said("console.not_a_number", text=word)
        return int(token)

    def match_named(self, command: str, words: list[str]) -> int:
        """The one match ``words`` name, else the match looked at; more is refused."""
        if len(words) > 1:
            raise self.stray(command, words[1:])
        return self.match_number(words[0]) if words else self.need_match()

    def stray(self, command: str, words: list[str], *, on_match: bool = False) -> ServiceError:
        """A refusal of words ``/command`` does not take; a command ``on_match`` (the match
        looked at) says which match that is, and how another is chosen."""
        text = " ".join(words)
        if not on_match or self.current is None:
            return ServiceError.said("console.stray", command=command, words=text)
        return ServiceError.said(
            "console.stray_match", command=command, words=text, match=self.current
        )

    def no_more(
        self, command: str, words: list[str], allowed: int = 0, *, on_match: bool = False
    ) -> None:
        """Refuse the words after the first ``allowed`` ones."""
        if len(words) > allowed:
            raise self.stray(command, words[allowed:], on_match=on_match)

    @staticmethod
    def named(
        words: list[str], names: tuple[str, ...], positional: int = 0
    ) -> tuple[dict[str, str], list[str]]:
        """``name=value`` words among ``names`` (each at most once) and at most
        ``positional`` other words; anything else is refused naming the options."""
        given: dict[str, str] = {}
        rest: list[str] = []
        for word in words:
            key, sep, value = word.partition("=")
            if sep and key in names:
                if key in given:
                    raise ServiceError.said("err.option_twice", name=key)
                given[key] = value
            elif sep or len(rest) >= positional:
                raise ServiceError.said("console.options", word=word, names=", ".join(names))
            else:
                rest.append(word)
        return given, rest

    # ----- people -------------------------------------------------------------------------
    async def is_known(self, user: User) -> bool:
        """Someone who typed in this session, or holds a seat in a stored match."""
        if user.id in self.people:
            return True
        return bool(await self.service.store.list_matches(user_id=user.id, statuses=STATUSES))

    async def known_names(self) -> list[str]:
        """The people this console knows (those who typed, and the seats of the latest
        matches), for a refusal that names them."""
        names = dict(self.people)
        for match in await self.service.store.list_matches(statuses=STATUSES):
            names.update({s.user_id: s.name for s in match.seats})
        return sorted({n for u, n in names.items() if u.startswith("console:")})

    async def player(self, word: str) -> User:
        """The person ``word`` names, if this console knows them; a typo is no person."""
        user = console_user(word)
        if not await self.is_known(user):
            raise ServiceError.said(
                "console.no_player",
                name=word,
                names=listing(await self.known_names(), self.lang),
                typed=user.id.removeprefix("console:"),
            )
        return user

    # ----- who is to move -----------------------------------------------------------------
    def who_acts(self, info: Any) -> list[str]:
        """Who the match waits for, as the console types it ("bob> /moves"), unless it is
        the person typing: the README example works whoever the game lets start."""
        if info.status != "running" or not info.to_act:
            return []
        waiting = [s for s in info.seats if s.user_id in info.to_act]
        if self.user is not None and all(s.user_id == self.user.id for s in waiting):
            return [t("console.your_move", self.lang)]
        people = [s for s in waiting if s.user_id.startswith("console:")]
        names = listing([s.name for s in waiting], self.lang)
        if not people:  # computer players: they move by themselves
            return [t("console.waiting", self.lang, names=names)]
        typed = people[0].user_id.removeprefix("console:")
        return [t("console.to_move", self.lang, names=names, typed=typed)]
