# syntax=docker/dockerfile:1
# Tessera's image: the bot installed from pyproject.toml (with the PostgreSQL extra), run
# as an unprivileged user. `docker compose up` (compose.yaml) starts it with PostgreSQL;
# README, "Operations". tests/test_container_files.py checks this file against the code.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

# What `pip install` needs to build and install the project; nothing else of the tree
# (tests, docs and benchmarks stay out of the image, .dockerignore keeps .env out too).
WORKDIR /src
COPY pyproject.toml README.md ./
COPY bot ./bot
COPY render ./render
COPY rules ./rules
COPY data ./data
COPY locale ./locale
RUN pip install '.[postgres]'

# An unprivileged user; its home is the working directory (an SQLite file or the
# console's pictures would land here when no PostgreSQL is configured).
RUN useradd --system --create-home --home-dir /home/tessera --uid 10001 tessera
WORKDIR /home/tessera
USER tessera

# The /metrics and /healthz endpoint, open inside the container (compose publishes it to
# the host's 127.0.0.1 only); the health check below asks it.
ENV TESSERA_METRICS_HOST=0.0.0.0 \
    TESSERA_METRICS_PORT=9464
EXPOSE 9464

HEALTHCHECK --interval=30s --timeout=10s --start-period=60s --retries=3 \
    CMD ["python", "-m", "bot.ops.health"]

# SIGTERM (docker stop) closes Discord and the database cleanly.
STOPSIGNAL SIGTERM
CMD ["python", "-m", "bot"]
