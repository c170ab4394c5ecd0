"""Django settings, all read from the environment (see docs/configuration.md and .env.example).

With no environment at all and DJANGO_DEBUG on (what `make run` does) this is a working dev setup:
SQLite in the project folder, Celery tasks run in-process, an insecure dev secret key. With
DJANGO_DEBUG off (the default) DJANGO_SECRET_KEY and DJANGO_ALLOWED_HOSTS must be set. The test
suite sets what it needs through pytest's own configuration (`[tool.pytest.ini_options] env` in
pyproject.toml); these settings never ask whether pytest is loaded.
"""

from __future__ import annotations

import os
import re
import sys
from datetime import timedelta
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

from advisor.env import env_bool, env_float, env_int, env_list, env_str

BASE_DIR = Path(__file__).resolve().parent.parent

DEBUG = env_bool("DJANGO_DEBUG", default=False)
# Commands that only compute and print (`manage.py recommend`, `check_config`, `mcp` on stdio)
# sign nothing and serve no host, so they run on a bare shell without a secret key or allowed
# hosts. Decided from this process's own command line, never from the environment, which a web
# server's process would inherit.
OFFLINE_COMMANDS = frozenset({"recommend", "check_config", "mcp"})
OFFLINE_COMMAND = (
    Path(sys.argv[0]).name == "manage.py" and len(sys.argv) > 1 and sys.argv[1] in OFFLINE_COMMANDS
)
if "ADVISOR_OFFLINE_COMMAND" in os.environ:  # how this was once switched on: refuse it
    raise ImproperlyConfigured(
        "ADVISOR_OFFLINE_COMMAND is no longer read and must not be set: it would have let a web "
        "server run on the development secret key. Remove it; `manage.py recommend` needs "
        "no settings."
    )
_NO_SECRETS_NEEDED = DEBUG or OFFLINE_COMMAND

_DEV_SECRET_KEY = "django-insecure-dev-only-key-never-use-in-production"
SECRET_KEY = env_str(
    "DJANGO_SECRET_KEY",
    default=_DEV_SECRET_KEY if _NO_SECRETS_NEEDED else None,
    accepts="a long random string (required when DJANGO_DEBUG is off)",
)
ALLOWED_HOSTS = env_list(
    "DJANGO_ALLOWED_HOSTS",
    default=["localhost", "127.0.0.1"] if _NO_SECRETS_NEEDED else None,
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
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "csp",
    "axes",
    "advisor",
]

MIDDLEWARE = [
    "advisor.unavailable.RequestBudgetMiddleware",  # outermost: no request outlives its budget
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Headers only; above the page limit, so that its refusals carry them too.
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
    # Counts a limited page's cost and refuses past PAGE_RATE, before the session, the CSRF
    # check, the database or a template (advisor.page_limits).
    "advisor.page_limits.PageLimitMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # Refuses a charset other than UTF-8 before any view or the CSRF check reads the request,
    # with the headers of the middleware above (advisor.charset).
    "advisor.charset.CharsetMiddleware",
    "axes.middleware.AxesMiddleware",  # last, as django-axes asks
]

ROOT_URLCONF = "advisor.urls"
WSGI_APPLICATION = "advisor.wsgi.application"
ASGI_APPLICATION = "advisor.asgi.application"

TEMPLATE_FEATURES = ("recommendations", "fleet", "calibration_admin")
TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        # The site's frame and error pages, then each feature package's own pages (the packages
        # are not Django apps: the models stay in advisor/, so their folders are listed here).
        "DIRS": [
            BASE_DIR / "templates",
            *(BASE_DIR / "advisor" / f / "templates" for f in TEMPLATE_FEATURES),
        ],
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

# A database that is down or stuck must not hold a request: a connect timeout, covering the
# server's start-up reply too (libpq's minimum is 2 s: "a value of 1 is interpreted as 2",
# https://www.postgresql.org/docs/current/libpq-connect.html#LIBPQ-CONNECT-CONNECT-TIMEOUT); a
# statement timeout on the server; and for a server that never answers, a client-side limit on
# every wait for an answer (advisor.postgres), DATABASE_ANSWER_MARGIN_S past the statement
# timeout so that the server cancels a slow statement first. A stalled database is answered 503
# within the larger of the two, well inside the budget for the whole request (advisor.unavailable).
DATABASE_CONNECT_TIMEOUT = env_int("DATABASE_CONNECT_TIMEOUT", default=2, min_value=1)
DATABASE_STATEMENT_TIMEOUT_MS = env_int("DATABASE_STATEMENT_TIMEOUT_MS", default=3_000, min_value=0)
# advisor-engineering-judgement: the server's cancellation of a statement is one round trip back.
DATABASE_ANSWER_MARGIN_S = 0.5
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    DATABASES["default"]["ENGINE"] = "advisor.postgres"
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            "connect_timeout": DATABASE_CONNECT_TIMEOUT,
            "options": f"-c statement_timeout={DATABASE_STATEMENT_TIMEOUT_MS}",
            # 0 turns the statement timeout off, and so the limit on waiting too
            "answer_timeout": (
                DATABASE_STATEMENT_TIMEOUT_MS / 1000 + DATABASE_ANSWER_MARGIN_S
                if DATABASE_STATEMENT_TIMEOUT_MS
                else None
            ),
        }
    )
REQUEST_SECONDS = env_float("DJANGO_REQUEST_SECONDS", 20.0, min_value=0.1, max_value=600.0)

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Admin login: django-axes locks a client address out after AXES_FAILURE_LIMIT wrong passwords
# for AXES_COOLOFF_TIME (answering 429), with the address taken as the request limits take it.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = env_int("DJANGO_LOGIN_FAILURE_LIMIT", default=5, min_value=1)
AXES_COOLOFF_TIME = timedelta(minutes=env_int("DJANGO_LOGIN_COOLOFF_MINUTES", 15, min_value=1))
AXES_LOCKOUT_PARAMETERS = ["ip_address"]
AXES_CLIENT_IP_CALLABLE = "advisor.client.client_address"
AXES_RESET_ON_SUCCESS = True
AXES_VERBOSE = False

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
# `collectstatic` first, so it is on by default only outside DEBUG; DJANGO_STATIC_MANIFEST
# overrides that choice either way (the test suite turns it off).
STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_MANIFEST = env_bool("DJANGO_STATIC_MANIFEST", default=not DEBUG)
# Without the manifest WhiteNoise serves straight from the source folders (no collectstatic).
WHITENOISE_USE_FINDERS = not STATIC_MANIFEST
WHITENOISE_AUTOREFRESH = not STATIC_MANIFEST
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
# Plain-HTTP requests are redirected to HTTPS outside debug (healthz stays reachable for
# container health checks), and HTTPS responses carry HSTS. `check --deploy` passes with these.
SECURE_SSL_REDIRECT = env_bool("DJANGO_SSL_REDIRECT", default=not DEBUG)
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
SECURE_HSTS_SECONDS = env_int(
    "DJANGO_HSTS_SECONDS", default=0 if DEBUG else 31_536_000, min_value=0
)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("DJANGO_HSTS_INCLUDE_SUBDOMAINS", default=True)
SECURE_HSTS_PRELOAD = env_bool("DJANGO_HSTS_PRELOAD", default=True)
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"

# Content-Security-Policy (django-csp): only this origin's scripts, styles and images, and no
# inline script anywhere (pages load their JavaScript from /static/). `data:` images are the
# Swagger UI's icons.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "font-src": ["'self'"],
        "connect-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    },
}

# Request size limits. Django's own limit covers form posts (the batch page's upload is checked
# separately); the API's JSON parser enforces API_MAX_BODY_BYTES, and a batch may be 10 MiB.
DATA_UPLOAD_MAX_MEMORY_SIZE = 2 * 1024 * 1024
FILE_UPLOAD_MAX_MEMORY_SIZE = 2 * 1024 * 1024
API_MAX_BODY_BYTES = 2 * 1024 * 1024  # one profile; a pasted SHOW VARIABLES fits
BATCH_MAX_BYTES = 10 * 1024 * 1024
BATCH_MAX_PROFILES = 10_000
# advisor-engineering-judgement: each chunk is a Celery task with its own broker and database
# round trips; 10,000 hosts on two workers took 10.8-10.9 s in chunks of 100 and 10.0-10.2 s in
# chunks of 250 (benchmarks/batch.py, interleaved runs), and 250 hosts still compute in well
# under a second, far inside the task's time limits.
BATCH_CHUNK_SIZE = env_int("BATCH_CHUNK_SIZE", default=250, min_value=1, max_value=10_000)
# One host of a batch gets this long (seconds) and fails alone past it; a chunk stops taking
# hosts after BATCH_CHUNK_SECONDS and queues the rest, well inside the task's 120 s soft limit.
BATCH_ITEM_SECONDS = env_float("BATCH_ITEM_SECONDS", 10.0, min_value=0.001, max_value=60.0)
BATCH_CHUNK_SECONDS = env_float("BATCH_CHUNK_SECONDS", 60.0, min_value=0.0, max_value=100.0)
# A batch polled while nothing has moved for this long is queued again (tasks are idempotent).
BATCH_STALL_SECONDS = env_int("BATCH_STALL_SECONDS", default=300, min_value=10)
# Where the workers write each finished batch's archives, one zip per batch and format, for the
# web processes to serve: the web and worker containers must share it (a volume in
# docker-compose.yml).
BATCH_ARCHIVE_DIR = Path(env_str("BATCH_ARCHIVE_DIR", default=str(BASE_DIR / "archives")))

# REST API (Django REST framework + drf-spectacular). Errors all take one shape, from one handler.
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "advisor.api.authentication.AddressLimitedTokenAuthentication"
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.AllowAny"],
    "DEFAULT_RENDERER_CLASSES": ["advisor.api.content.FastJsonRenderer"],
    "DEFAULT_PARSER_CLASSES": ["advisor.api.content.JsonParser"],
    "DEFAULT_THROTTLE_CLASSES": ["advisor.api.throttling.ClientRateThrottle"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "advisor.api.errors.exception_handler",
    "NUM_PROXIES": env_int("DJANGO_NUM_PROXIES", default=0, min_value=0, max_value=10),
    "STRICT_JSON": True,
}
# Requests per client (token user, else IP address) and window, for the open endpoints too; a
# request counts one unit per started 32 KiB of body (advisor.ratelimit.COST_UNIT_BYTES).
_RATE_HELP = "a count per second, minute, hour or day, e.g. 120/minute"
API_RATE_ANON = env_str("DJANGO_API_RATE_ANON", default="120/minute", accepts=_RATE_HELP)
API_RATE_USER = env_str("DJANGO_API_RATE_USER", default="1200/minute", accepts=_RATE_HELP)
# Units per address on the pages that compute or store: POSTs (presets, wizard, what-if, batch
# upload) by body size as above, and GETs of a result page, its downloads and the sources page.
PAGE_RATE = env_str("DJANGO_PAGE_RATE", default="60/minute", accepts=_RATE_HELP)
# Failed API token checks per address; past it, requests with a token get 429 unchecked.
# advisor-engineering-judgement: a tool with a stale token fails once per run, a person retyping
# one a few times; 20 a minute leaves that room and stops guessing or loading the database.
AUTH_FAILURE_RATE = env_str("DJANGO_AUTH_FAILURE_RATE", default="20/minute", accepts=_RATE_HELP)
for _name, _rate in (
    ("DJANGO_AUTH_FAILURE_RATE", AUTH_FAILURE_RATE),
    ("DJANGO_API_RATE_ANON", API_RATE_ANON),
    ("DJANGO_API_RATE_USER", API_RATE_USER),
    ("DJANGO_PAGE_RATE", PAGE_RATE),
):
    if not re.fullmatch(r"[1-9][0-9]*/(second|minute|hour|day)", _rate):
        raise ImproperlyConfigured(f"{_name}={_rate!r} is not valid; it accepts {_RATE_HELP}.")
SPECTACULAR_SETTINGS = {
    "TITLE": "InnoDB IO Advisor API",
    "DESCRIPTION": (
        "Recommended InnoDB IO settings for MySQL, Percona Server and MariaDB, with reasons and "
        "sources, for one host or a fleet. Every 4xx answer has the shape "
        '`{"message": ..., "errors": {"field.path": ["..."]}}`.'
    ),
    # 2: results cite each source once (rules.render.jsonout.RESULT_FORMAT); 2.1 only adds: an os
    # item's reason, the /sysctl download and the optional hardware.numa_nodes; 2.2 only adds the
    # network_ssd media with its volume fields, hardware.memory_limit_gb and a probe's
    # provenance, undetected and probe keys; 2.3 only adds: a setting's apply_note, POST /check,
    # the revert downloads (?revert=true) and the deploy-tool formats; 2.4 only adds the optional
    # hardware.cpu_limit and hardware.storage.volume_size_gb; 2.5 only adds workload.lab_results
    # and the estimate's anchor.
    "VERSION": "2.5",
    "SERVE_INCLUDE_SCHEMA": False,
    "SCHEMA_PATH_PREFIX": "/api/v1",
    "COMPONENT_SPLIT_REQUEST": True,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "ENUM_NAME_OVERRIDES": {
        "BatchStatusEnum": "advisor.models.Batch.Status",
        "BatchItemStatusEnum": "advisor.models.BatchItem.Status",
        "MeasurementStatusEnum": "advisor.models.Measurement.Status",
    },
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "advisor.api.openapi.add_components",
    ],
}

# Cache: shared by the web processes for throttling. Default: per process, in memory.
CACHE_URL = env_str("DJANGO_CACHE_URL", default="", accepts="redis://host:port/db, or empty")
CACHES = {
    "default": (
        {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": CACHE_URL,
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
        }
        if CACHE_URL
        else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
    ),
}

# Celery. With no broker, tasks run in-process (eagerly) so nothing else has to run.
CELERY_BROKER_URL = env_str("CELERY_BROKER_URL", default="")
if CELERY_BROKER_URL.startswith("redis://"):
    # Kombu's Redis transport, made to survive a late acknowledgement on a closed connection.
    CELERY_BROKER_TRANSPORT = "advisor.fleet.broker:Transport"
CELERY_RESULT_BACKEND = env_str("CELERY_RESULT_BACKEND", default="") or None
CELERY_TASK_ALWAYS_EAGER = not CELERY_BROKER_URL
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_ACKS_LATE = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_SOFT_TIME_LIMIT = 120  # seconds: the task gets SoftTimeLimitExceeded
CELERY_TASK_TIME_LIMIT = 150  # seconds: the worker process is killed
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# Publishing gives up after about a second when the broker is down, so that creating a batch
# answers 503 quickly instead of hanging; workers keep retrying their own connection.
CELERY_BROKER_CONNECTION_TIMEOUT = 2
CELERY_TASK_PUBLISH_RETRY_POLICY = {
    "max_retries": 2,
    "interval_start": 0,
    "interval_step": 0.2,
    "interval_max": 0.5,
}
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "socket_connect_timeout": 1,
    "socket_timeout": 5,
    # An unacknowledged task (acks_late) of a worker that died is delivered again after this.
    "visibility_timeout": env_int("CELERY_VISIBILITY_TIMEOUT", default=600, min_value=10),
}

# celery beat (the `beat` service in docker-compose.yml) runs the housekeeping tasks.
CELERY_BEAT_SCHEDULE = {
    "sessions-clear": {"task": "advisor.tasks.maintenance.sessions_clear", "schedule": 86_400},
}
# A wizard draft is kept for a week after the visitor's last step, then cleared.
SESSION_COOKIE_AGE = env_int("DJANGO_SESSION_SECONDS", default=7 * 86_400, min_value=300)

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
