FROM python:3.11-slim

# GEOTABLE_RENDER_WORKERS: processes drawing boards, about 100 MiB each; not one per core of the host; GEOTABLE_AI_WORKERS: processes in which computers think
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 GEOTABLE_DATABASE=/data/geotable.db GEOTABLE_RENDER_WORKERS=2 GEOTABLE_AI_WORKERS=2
WORKDIR /app
# the locked, hash-checked versions the suite ran with (scripts/lock refreshes them), in a layer of their own
COPY requirements.lock ./
RUN pip install --no-cache-dir --require-hashes --no-deps -r requirements.lock && pip check
COPY pyproject.toml setup.py README.md ./
COPY bot ./bot
COPY games ./games
COPY render ./render
# the message catalogs (.po): `pip install .` compiles them into the .mo files the bot loads
COPY i18n ./i18n
RUN pip install --no-cache-dir --no-deps --no-build-isolation . \
 && useradd --create-home --uid 10001 geotable \
 && mkdir -p /data && chown geotable:geotable /data
USER geotable
VOLUME ["/data"]
# exec form: the bot is PID 1 and gets `docker stop`'s SIGTERM itself (it finishes the clicks under way and
# exits 0 within a few seconds)
CMD ["python", "-m", "bot"]
