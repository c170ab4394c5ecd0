import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from advisor.env import env_bool, env_int, env_list, env_str

VAR = "ADVISOR_TEST_VARIABLE"
PROJECT_DIR = Path(__file__).resolve().parents[2]


@pytest.fixture
def set_var(monkeypatch):
    def set_to(value):
        monkeypatch.setenv(VAR, value)

    monkeypatch.delenv(VAR, raising=False)
    return set_to


class TestEnvStr:
    def test_it_returns_the_value_without_surrounding_blanks(self, set_var):
        set_var("  postgres://db/advisor ")
        assert env_str(VAR) == "postgres://db/advisor"

    @pytest.mark.parametrize("value", [None, "", "   "])
    def test_it_falls_back_to_the_default_when_unset_or_blank(self, set_var, value):
        if value is not None:
            set_var(value)
        assert env_str(VAR, "fallback") == "fallback"

    def test_it_names_the_variable_when_a_required_one_is_missing(self, set_var):
        with pytest.raises(ImproperlyConfigured, match=f"{VAR} is required but not set"):
            env_str(VAR, accepts="a long random string")

    def test_it_accepts_one_of_the_choices(self, set_var):
        set_var("INFO")
        assert env_str(VAR, "DEBUG", choices=["DEBUG", "INFO"]) == "INFO"

    def test_it_refuses_a_value_outside_the_choices_and_lists_them(self, set_var):
        set_var("LOUD")
        with pytest.raises(ImproperlyConfigured, match=f"{VAR}='LOUD'.*one of DEBUG, INFO"):
            env_str(VAR, "DEBUG", choices=["DEBUG", "INFO"])


class TestEnvBool:
    @pytest.mark.parametrize(
        ("value", "expected"),
        [
            ("1", True),
            ("true", True),
            ("TRUE", True),
            ("Yes", True),
            ("on", True),
            (" On ", True),
            ("0", False),
            ("false", False),
            ("False", False),
            ("no", False),
            ("OFF", False),
        ],
    )
    def test_it_reads_the_usual_words_in_any_case(self, set_var, value, expected):
        set_var(value)
        assert env_bool(VAR, default=not expected) is expected

    @pytest.mark.parametrize("default", [True, False])
    def test_it_falls_back_to_the_default_when_unset(self, set_var, default):
        assert env_bool(VAR, default=default) is default

    @pytest.mark.parametrize("value", ["maybe", "2", "y", "enabled", "-1"])
    def test_it_refuses_anything_else_naming_the_variable_and_the_words(self, set_var, value):
        set_var(value)
        with pytest.raises(ImproperlyConfigured) as caught:
            env_bool(VAR, default=False)
        assert VAR in str(caught.value)
        assert "1, 0, true, false, yes, no, on, off" in str(caught.value)


class TestEnvInt:
    @pytest.mark.parametrize(("value", "expected"), [("0", 0), ("42", 42), (" -7 ", -7)])
    def test_it_reads_an_integer(self, set_var, value, expected):
        set_var(value)
        assert env_int(VAR, 1) == expected

    def test_it_falls_back_to_the_default_when_unset(self, set_var):
        assert env_int(VAR, 300) == 300

    def test_it_names_the_variable_when_a_required_one_is_missing(self, set_var):
        with pytest.raises(ImproperlyConfigured, match=f"{VAR} is required.*an integer"):
            env_int(VAR)

    @pytest.mark.parametrize("value", ["ten", "1.5", "0x10", "1e3"])
    def test_it_refuses_what_is_not_an_integer(self, set_var, value):
        set_var(value)
        with pytest.raises(ImproperlyConfigured, match=f"{VAR}=.*accepts an integer"):
            env_int(VAR, 1)

    @pytest.mark.parametrize("value", ["0", "101"])
    def test_it_refuses_a_value_outside_the_bounds_and_states_them(self, set_var, value):
        set_var(value)
        with pytest.raises(ImproperlyConfigured, match=f"{VAR}=.*from 1 to 100"):
            env_int(VAR, 10, min_value=1, max_value=100)


class TestEnvList:
    @pytest.mark.parametrize(
        ("value", "expected"),
        [
            ("localhost", ["localhost"]),
            ("localhost,127.0.0.1", ["localhost", "127.0.0.1"]),
            (" a.example.com , b.example.com ", ["a.example.com", "b.example.com"]),
        ],
    )
    def test_it_splits_on_commas(self, set_var, value, expected):
        set_var(value)
        assert env_list(VAR) == expected

    def test_it_falls_back_to_a_copy_of_the_default_when_unset(self, set_var):
        default = ["localhost"]
        result = env_list(VAR, default)
        assert result == ["localhost"]
        assert result is not default

    def test_it_names_the_variable_when_a_required_one_is_missing(self, set_var):
        with pytest.raises(ImproperlyConfigured, match=f"{VAR} is required.*comma-separated"):
            env_list(VAR)

    @pytest.mark.parametrize("value", ["a,,b", "a,", ",a"])
    def test_it_refuses_empty_items(self, set_var, value):
        set_var(value)
        with pytest.raises(ImproperlyConfigured, match=f"{VAR}=.*comma-separated"):
            env_list(VAR, [])


# The settings module, loaded in a fresh interpreter (outside pytest) with a given environment.
SHOW_SETTINGS = """
import json
from django.conf import settings
print(json.dumps({
    "DEBUG": settings.DEBUG,
    "ALLOWED_HOSTS": settings.ALLOWED_HOSTS,
    "ENGINE": settings.DATABASES["default"]["ENGINE"],
    "NAME": str(settings.DATABASES["default"]["NAME"]),
    "STATICFILES": settings.STORAGES["staticfiles"]["BACKEND"],
    "SECURE_COOKIES": settings.SESSION_COOKIE_SECURE and settings.CSRF_COOKIE_SECURE,
    "PROXY_HEADER": getattr(settings, "SECURE_PROXY_SSL_HEADER", None),
    "EAGER": settings.CELERY_TASK_ALWAYS_EAGER,
}))
"""


def load_settings(**env):
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "CELERY_"))}
    clean.pop("DATABASE_URL", None)
    clean["DJANGO_SETTINGS_MODULE"] = "advisor.settings"
    return subprocess.run(
        [sys.executable, "-c", SHOW_SETTINGS],
        env={**clean, **env},
        cwd=PROJECT_DIR,
        capture_output=True,
        text=True,
        check=False,
    )


class TestSettings:
    def test_debug_with_no_other_variable_gives_the_dev_setup(self):
        run = load_settings(DJANGO_DEBUG="1")
        assert run.returncode == 0, run.stderr
        shown = json.loads(run.stdout)
        assert shown["DEBUG"] is True
        assert shown["ALLOWED_HOSTS"] == ["localhost", "127.0.0.1"]
        assert shown["ENGINE"] == "django.db.backends.sqlite3"
        assert shown["NAME"] == str(PROJECT_DIR / "db.sqlite3")
        assert shown["STATICFILES"].endswith(".StaticFilesStorage")
        assert shown["SECURE_COOKIES"] is False
        assert shown["EAGER"] is True

    def test_without_debug_a_missing_secret_key_is_refused_by_name(self):
        run = load_settings()
        assert run.returncode != 0
        assert "ImproperlyConfigured: DJANGO_SECRET_KEY is required" in run.stderr

    def test_without_debug_missing_allowed_hosts_are_refused_by_name(self):
        run = load_settings(DJANGO_SECRET_KEY="x" * 50)
        assert run.returncode != 0
        assert "ImproperlyConfigured: DJANGO_ALLOWED_HOSTS is required" in run.stderr

    def test_production_settings_are_locked_down(self):
        run = load_settings(
            DJANGO_SECRET_KEY="x" * 50,
            DJANGO_ALLOWED_HOSTS="advisor.example.com",
            DJANGO_BEHIND_HTTPS_PROXY="yes",
            DATABASE_URL="postgres://advisor:secret@db.example.com:5432/advisor",
            CELERY_BROKER_URL="redis://redis:6379/0",
        )
        assert run.returncode == 0, run.stderr
        shown = json.loads(run.stdout)
        assert shown["DEBUG"] is False
        assert shown["ENGINE"] == "advisor.postgres"  # Django's, with an answer timeout
        assert shown["STATICFILES"] == "whitenoise.storage.CompressedManifestStaticFilesStorage"
        assert shown["SECURE_COOKIES"] is True
        assert shown["PROXY_HEADER"] == ["HTTP_X_FORWARDED_PROTO", "https"]
        assert shown["EAGER"] is False

    def test_a_malformed_database_url_is_refused_by_name(self):
        run = load_settings(DJANGO_DEBUG="1", DATABASE_URL="nosuchdb://x")
        assert run.returncode != 0
        assert "ImproperlyConfigured: DATABASE_URL='nosuchdb://x' is not valid" in run.stderr


def run_bare(*args: str) -> subprocess.CompletedProcess[str]:
    """`args` in the project folder with no DJANGO_ or CELERY_ variable set, as on a new shell of
    a production install (no .env: a developer's own is not read)."""
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "CELERY_"))}
    clean["DJANGO_SETTINGS_MODULE"] = "advisor.settings"
    clean["DJANGO_ENV_FILE"] = ""
    return subprocess.run(
        list(args), env=clean, cwd=PROJECT_DIR, capture_output=True, text=True, check=False
    )


class TestOfflineCommand:
    """Only `manage.py recommend`, named on the process's own command line, runs without a
    secret key; no variable in the environment can switch a web server onto the dev key."""

    def test_the_old_switch_in_the_environment_is_refused_by_name(self):
        run = load_settings(ADVISOR_OFFLINE_COMMAND="1")
        assert run.returncode != 0
        assert "ImproperlyConfigured: ADVISOR_OFFLINE_COMMAND is no longer read" in run.stderr

    def test_a_wsgi_process_without_secrets_refuses_to_start(self):
        run = run_bare(sys.executable, "-c", "import advisor.wsgi")
        assert run.returncode != 0
        assert "DJANGO_SECRET_KEY is required" in run.stderr

    def test_manage_py_recommend_needs_no_settings(self):
        run = run_bare(sys.executable, "manage.py", "recommend", "--help")
        assert run.returncode == 0, run.stderr
        assert "usage: manage.py recommend" in run.stdout

    def test_other_manage_py_commands_still_need_the_secret_key(self):
        run = run_bare(sys.executable, "manage.py", "check")
        assert run.returncode != 0
        assert "DJANGO_SECRET_KEY is required" in run.stderr


class TestDevInstall:
    """After `make run`'s set-up the README's commands work in a new shell with nothing exported;
    a production install missing a setting says which, in one line."""

    def test_the_readme_token_command_works_after_make_runs_set_up(self, tmp_path):
        env_file = tmp_path / ".env"
        made = subprocess.run(
            ["make", "-s", f"ENV_FILE={env_file}", str(env_file)],
            cwd=PROJECT_DIR,
            capture_output=True,
            text=True,
            check=False,
        )
        assert made.returncode == 0, made.stderr
        assert "DJANGO_DEBUG=1" in env_file.read_text()
        shell = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "CELERY_"))}
        shell.pop("DATABASE_URL", None)
        env_file.write_text(
            env_file.read_text() + f"DATABASE_URL=sqlite:///{tmp_path / 'dev.sqlite3'}\n"
        )
        shell["DJANGO_ENV_FILE"] = str(env_file)
        for args in (["migrate", "--noinput"], ["create_api_token", "ansible"]):
            run = subprocess.run(
                [sys.executable, "manage.py", *args],
                env=shell,
                cwd=PROJECT_DIR,
                capture_output=True,
                text=True,
                check=False,
            )
            assert run.returncode == 0, run.stderr
        assert re.fullmatch(r"[0-9a-f]{40}\n", run.stdout), run.stdout

    @pytest.mark.parametrize(
        "args",
        [["create_api_token", "ansible"], ["createsuperuser", "--noinput"], ["calibrate"]],
    )
    def test_a_production_install_without_its_secret_says_so_in_one_line(self, args):
        run = run_bare(sys.executable, "manage.py", *args)
        assert run.returncode != 0
        assert "Traceback" not in run.stderr
        assert run.stderr.count("\n") == 1
        assert "DJANGO_SECRET_KEY is required but not set" in run.stderr
