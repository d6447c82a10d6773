FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 GEOTABLE_DATABASE=/data/geotable.db
WORKDIR /app
COPY pyproject.toml README.md ./
COPY bot ./bot
COPY games ./games
COPY render ./render
RUN pip install --no-cache-dir . \
 && useradd --create-home --uid 10001 geotable \
 && mkdir -p /data && chown geotable:geotable /data
USER geotable
VOLUME ["/data"]
CMD ["python", "-m", "bot"]
