import pytest
from django.core.management import CommandError, call_command
from rest_framework.authtoken.models import Token

pytestmark = pytest.mark.django_db


def run(capsys, *args):
    call_command("create_api_token", *args)
    return capsys.readouterr().out.strip()


def test_it_prints_only_the_key_of_a_new_client(capsys):
    key = run(capsys, "ansible-prod")
    token = Token.objects.get(key=key)
    assert token.user.username == "ansible-prod"
    assert not token.user.has_usable_password()


def test_asking_again_prints_the_same_key(capsys):
    assert run(capsys, "terraform") == run(capsys, "terraform")


def test_rotate_replaces_the_key(capsys):
    old = run(capsys, "puppet")
    new = run(capsys, "puppet", "--rotate")
    assert new != old
    assert not Token.objects.filter(key=old).exists()


def test_an_empty_name_is_refused():
    with pytest.raises(CommandError):
        call_command("create_api_token", "  ")
