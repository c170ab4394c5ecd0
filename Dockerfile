# The web app (gunicorn) and the Celery worker share this image; see docker-compose.yml.
FROM python:3.11-slim-bookworm

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PYTHONPATH=/app \
    DJANGO_SETTINGS_MODULE=advisor.settings

WORKDIR /app

# The pinned runtime dependencies of pyproject.toml, in their own layer so that a code change
# does not reinstall them. The project itself runs from /app (PYTHONPATH), not installed.
COPY pyproject.toml ./
RUN python -c "import tomllib; print('\n'.join(tomllib.load(open('pyproject.toml', 'rb'))['project']['dependencies']))" > /tmp/requirements.txt \
    && pip install -r /tmp/requirements.txt \
    && rm /tmp/requirements.txt

COPY . .

RUN useradd --system --uid 10001 --no-create-home --home-dir /app app \
    && mkdir -p /app/staticfiles /app/archives \
    && chown app /app/staticfiles /app/archives
USER app

EXPOSE 8000

# Migrate and collect static files at start, then serve. Workers: WEB_CONCURRENCY (gunicorn's own).
CMD ["sh", "-c", "python manage.py migrate --noinput && python manage.py collectstatic --noinput && exec gunicorn advisor.wsgi --bind 0.0.0.0:8000 --access-logfile -"]
