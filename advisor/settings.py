"""Django settings, all read from the environment (see README "Configuration" and .env.example).

With no environment at all and DJANGO_DEBUG on (what `make run` does) this is a working dev setup:
SQLite in the project folder, Celery tasks run in-process, an insecure dev secret key. With
DJANGO_DEBUG off (the default) DJANGO_SECRET_KEY and DJANGO_ALLOWED_HOSTS must be set, except under
pytest, which gets the dev defaults so that every test run works without secrets.
"""

from __future__ import annotations

import sys
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

from advisor.env import env_bool, env_list, env_str

BASE_DIR = Path(__file__).resolve().parent.parent

# pytest is always imported before pytest-django loads these settings; nothing else imports it.
TESTING = "pytest" in sys.modules

DEBUG = env_bool("DJANGO_DEBUG", default=False)
_DEV_DEFAULTS = DEBUG or TESTING

_DEV_SECRET_KEY = "django-insecure-dev-only-key-never-use-in-production"
SECRET_KEY = env_str(
    "DJANGO_SECRET_KEY",
    default=_DEV_SECRET_KEY if _DEV_DEFAULTS else None,
    accepts="a long random string (required when DJANGO_DEBUG is off)",
)
ALLOWED_HOSTS = env_list(
    "DJANGO_ALLOWED_HOSTS",
    default=["localhost", "127.0.0.1"] if _DEV_DEFAULTS else None,
    accepts="comma-separated host names (required when DJANGO_DEBUG is off)",
)
CSRF_TRUSTED_ORIGINS = env_list(
    "DJANGO_CSRF_TRUSTED_ORIGINS",
    default=[],
    accepts="comma-separated origins with scheme, e.g. https://advisor.example.com",
)

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    "template_partials",
    "advisor",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
]

ROOT_URLCONF = "advisor.urls"
WSGI_APPLICATION = "advisor.wsgi.application"
ASGI_APPLICATION = "advisor.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,  # template_partials replaces this with its own loader chain
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# Database: one URL (postgres://user:pass@host:5432/name, sqlite:///path). PostgreSQL goes
# through psycopg 3. Default: an SQLite file in the project folder, for `make run`.
_DEFAULT_DATABASE_URL = f"sqlite:///{BASE_DIR / 'db.sqlite3'}"
_database_url = env_str("DATABASE_URL", default=_DEFAULT_DATABASE_URL)
try:
    DATABASES = {
        "default": dj_database_url.parse(_database_url, conn_max_age=60, conn_health_checks=True),
    }
except ValueError as exc:
    raise ImproperlyConfigured(
        f"DATABASE_URL={_database_url!r} is not valid ({exc}); it accepts a database URL "
        "such as postgres://user:password@host:5432/name or sqlite:///path/to/db.sqlite3."
    ) from None

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

# Static files: served by WhiteNoise. The hashed, compressed manifest storage needs
# `collectstatic` first, so it is on by default only outside DEBUG and outside tests;
# DJANGO_STATIC_MANIFEST overrides that choice either way.
STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_MANIFEST = env_bool("DJANGO_STATIC_MANIFEST", default=not _DEV_DEFAULTS)
# In DEBUG and in tests WhiteNoise serves straight from the source folders (no collectstatic).
WHITENOISE_USE_FINDERS = _DEV_DEFAULTS
WHITENOISE_AUTOREFRESH = _DEV_DEFAULTS
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "whitenoise.storage.CompressedManifestStaticFilesStorage"
            if STATIC_MANIFEST
            else "django.contrib.staticfiles.storage.StaticFilesStorage"
        ),
    },
}

# Security. Cookies are marked Secure by default whenever DEBUG is off; turn that off only to
# serve plain HTTP. Behind a TLS-terminating proxy that sets X-Forwarded-Proto, set
# DJANGO_BEHIND_HTTPS_PROXY so that Django knows the request was HTTPS.
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
SECURE_COOKIES = env_bool("DJANGO_SECURE_COOKIES", default=not DEBUG)
SESSION_COOKIE_SECURE = SECURE_COOKIES
CSRF_COOKIE_SECURE = SECURE_COOKIES
if env_bool("DJANGO_BEHIND_HTTPS_PROXY", default=False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

# Celery. With no broker, tasks run in-process (eagerly) so nothing else has to run.
CELERY_BROKER_URL = env_str("CELERY_BROKER_URL", default="")
CELERY_RESULT_BACKEND = env_str("CELERY_RESULT_BACKEND", default="") or None
CELERY_TASK_ALWAYS_EAGER = not CELERY_BROKER_URL
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_ACKS_LATE = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_SOFT_TIME_LIMIT = 120  # seconds: the task gets SoftTimeLimitExceeded
CELERY_TASK_TIME_LIMIT = 150  # seconds: the worker process is killed
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True

# Logging: everything to stdout, one line per record.
LOG_LEVEL = env_str(
    "DJANGO_LOG_LEVEL", default="INFO", choices=["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"]
)
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "line": {"format": "{asctime} {levelname} {name}: {message}", "style": "{"},
    },
    "handlers": {
        "stdout": {
            "class": "logging.StreamHandler",
            "stream": "ext://sys.stdout",
            "formatter": "line",
        },
    },
    "root": {"handlers": ["stdout"], "level": LOG_LEVEL},
    "loggers": {
        "django": {"handlers": ["stdout"], "level": LOG_LEVEL, "propagate": False},
    },
}
