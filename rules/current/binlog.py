"""Whether the server writes a binary log: what the pasted configuration says, else the
release's default. The durability rules and the throughput model both ask."""

from rules.current.values import is_off
from rules.inputs.enums import Flavor
from rules.inputs.profile import Profile


def binary_log_on(profile: Profile) -> bool:
    """log_bin as pasted (SHOW VARIABLES' ON or OFF; a my.cnf's log-bin[=name], skip-log-bin
    or disable-log-bin), else the release's default: on since MySQL 8.0
    (mysql-manual-binary-log), off on 5.7 and on MariaDB (mariadb-docs-binary-log)."""
    pasted = pasted_log_bin(profile)
    if pasted is not None:
        return not is_off(pasted)
    return binary_log_by_default(profile)


def pasted_log_bin(profile: Profile) -> str | None:
    """log_bin as the pasted configuration gives it; None when it does not say."""
    current = profile.current
    return None if current is None else current.variables.get("log_bin")


def binary_log_by_default(profile: Profile) -> bool:
    server = profile.server
    return server.flavor is not Flavor.MARIADB and server.version.key() >= (8, 0, 0)
