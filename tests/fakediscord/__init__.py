"""A strict local Discord for end-to-end tests (see :mod:`tests.fakediscord.server`)."""

from tests.fakediscord.limits import ApiError
from tests.fakediscord.server import FakeDiscord, Interaction, Message

__all__ = ["ApiError", "FakeDiscord", "Interaction", "Message"]
