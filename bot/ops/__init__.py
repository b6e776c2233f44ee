"""Running the bot as operators run services: its metrics (``metrics``: the registry and
the counters the bot's parts bump with one-line calls), the HTTP endpoint that serves them
with a health check (``server``), the reads done at scrape time (``probes``), the log's
format (``logs``) and the container's health check command (``health``).

Why a package of its own: the parts of the bot (the match service, the delivery worker,
the computer driver) only ever call :mod:`bot.ops.metrics`, which imports nothing of the
bot, so counting a move never drags a web server or the database into a part's imports.
"""
