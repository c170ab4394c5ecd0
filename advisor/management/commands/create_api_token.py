"""`.venv/bin/python manage.py create_api_token NAME`: the API token of the client NAME.

Batches and measurements need a token; each token sees only its own batches. The key alone is
printed, so `TOKEN=$(.venv/bin/python manage.py create_api_token ci)` works in scripts.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction
from rest_framework.authtoken.models import Token

from advisor.management.migrated import require_migrated


class Command(BaseCommand):
    help = "Create the API token of client NAME (or print the one it has); prints only the key."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("name", help="The client, e.g. ansible-prod (a user of that name).")
        parser.add_argument(
            "--rotate", action="store_true", help="Replace the client's token with a new one."
        )

    def handle(self, *args: Any, name: str, rotate: bool, **options: Any) -> None:
        name = name.strip()
        if not name or len(name) > 150:
            raise CommandError("NAME must be 1 to 150 characters, e.g. ansible-prod")
        require_migrated()
        with transaction.atomic():
            user, created = get_user_model().objects.get_or_create(username=name)
            if created:
                user.set_unusable_password()  # a token client, never a login
                user.save(update_fields=["password"])
            if rotate:
                Token.objects.filter(user=user).delete()
            token, _ = Token.objects.get_or_create(user=user)
        self.stdout.write(token.key)
