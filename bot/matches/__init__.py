"""The match service: one match from lobby to result, split by concern.

``service.py`` holds :class:`~bot.matches.service.MatchService`, the facade the front ends,
the computer driver and the tools hold; it composes the parts (``lobby``, ``turns``,
``posts``, ``seats``, ``subs``, ``votes``, ``absences``, ``records``, ``pictures``,
``computer_seats``) over a shared ``core``. What a caller needs beside the service comes
from the module that defines it: the refusals from ``errors``, the values a call returns
(``User``, ``MatchInfo``, ``TurnReport``, ``SeatTurn``) from ``reports``, the move-log
helpers from ``rows``.

This file imports nothing on purpose: ``bot.community.ratings`` reads ``holders`` from this
package while a finishing match rates itself through ``after_game``, and a package that
loaded the whole service on first touch would close that into an import cycle.
"""
