"""Which pasted variables the advisor keeps: only those it reads, never a credential.

A pasted my.cnf or SHOW GLOBAL VARIABLES holds far more than InnoDB's IO settings, sometimes
passwords (`wsrep_sst_auth=user:password`, `password=` under [client]) and key or certificate
paths. The result echoes and stores what it keeps, so everything else is dropped at the door and
the result only says how many were dropped and which of them looked like credentials.
"""

import re
from collections.abc import Collection, Mapping

from rules.reference.removed import REMOVED_NAMES

# Keys of a result's echoed `current` that are not variables.
ECHO_META_KEYS = frozenset({"origin", "dropped_variables", "os"})
# Variables kept although the catalog has no row for them, because the audit
# (rules/current/audit.py)
# warns about them: MySQL 8.0 removed the query cache, and a server given these will not start;
# the per-connection buffers times max_connections can promise more memory than the host has
# (the sort, join, read and temporary-table limits have catalog rows and are kept anyway).
UNCATALOGUED_SESSION_BUFFERS = ("binlog_cache_size", "thread_stack")
AUDITED_NAMES = frozenset(
    {
        "query_cache_limit",
        "query_cache_min_res_unit",
        "query_cache_size",
        "query_cache_type",
        "query_cache_wlock_invalidate",
        "max_connections",
        *UNCATALOGUED_SESSION_BUFFERS,
    }
)

# Read although the catalog has no row for them (the advisor never sets them): the limits the
# memory budget counts beside the buffer pool (rules/machine/memory.py) and how the server runs
# connections (a thread pool bounds how many allocate their buffers at once).
MEMORY_MODEL_NAMES = (
    "max_heap_table_size",
    "internal_tmp_mem_storage_engine",
    "temptable_max_ram",
    "performance_schema",
    "key_buffer_size",
    "table_open_cache",
    "thread_handling",
)
# Read although the catalog has no row for it (the advisor never sets it): whether the server
# writes a binary log, which the sync_binlog rule and the throughput model ask
# (rules/current/binlog.py).
# And the memory model's variables above.
READ_UNCATALOGUED = frozenset({"log_bin", *MEMORY_MODEL_NAMES})
# Every name kept besides the catalog's: the probe (probe/advisor_probe.py ADVISOR_READS) posts
# only these and the catalog's rows, and a test holds its list equal to them.
KEPT_UNCATALOGUED = AUDITED_NAMES | READ_UNCATALOGUED

# Tuning a DBA sets by hand that the advisor reads nowhere and never sets: dropped like any other
# unread variable, but named in the note with its value, so a paste does not seem to lose them.
TUNING_NOT_SET = (
    "innodb_thread_concurrency",
    "innodb_concurrency_tickets",
    "innodb_commit_concurrency",
    "innodb_purge_threads",
    "innodb_adaptive_hash_index",
    "innodb_spin_wait_delay",
    "innodb_sync_spin_loops",
)
_SHOWN_TUNING = 60  # characters of a tuning value a note quotes

# Variable names whose value is a secret or points at one: passwords and authentication strings
# (`wsrep_sst_auth`, `*_password`), keys, certificates and the TLS settings that name them. Precise
# on purpose: `key_buffer_size`, `foreign_key_checks` and `table_open_cache` are not credentials.
_CREDENTIAL_NAME = re.compile(
    r"pass(word|wd)?($|_)|(^|_)pwd($|_)|(^|_)auth($|_|entication_(ldap|kerberos|fido|webauthn))"
    r"|secret|credential|token|keyring|(^|_)(ssl|tls)($|_)|(^|_)key($|_file|_path|_id|s($|_))"
    r"|(^|_)cert|(^|_)ca($|_|path)|(^|_)crl"
)
# Shapes of a secret inside any text (a pasted line, a key, a path): a credential word, the
# mysql client's `-pPASSWORD` and `--password`, a URL with a user and password, `IDENTIFIED BY`,
# the client's MYSQL_PWD variable. Broad on purpose: a text that matches is never quoted.
_SECRET_IN_TEXT = re.compile(
    r"pass|pwd|secret|credential|token|auth|identified|private|(^|[\s'\"])-p\S|://[^/\s]*@",
    re.IGNORECASE,
)


def looks_like_credential(name: str) -> bool:
    """Whether a variable's value may be a secret, judged by the variable's name."""
    return _CREDENTIAL_NAME.search(name.lower()) is not None


def holds_secret(text: str) -> bool:
    """Whether a text may carry a secret, so that a note or an error must not quote it."""
    return looks_like_credential(text) or _SECRET_IN_TEXT.search(text) is not None


def keep_read_variables(
    variables: Mapping[str, str],
    read: Collection[str],
    removed: Collection[str] = REMOVED_NAMES,
) -> tuple[dict[str, str], list[str]]:
    """(the variables the advisor reads or audits, notes on what was dropped, if anything).

    `removed` are kept too, for the audit's warning that a release no longer has them: by default
    every name the table of removed variables holds (a paste kept before its version is known),
    or those the profile's release lacks (rules.current.settle)."""
    kept = {
        name: value
        for name, value in variables.items()
        if name in read or name in KEPT_UNCATALOGUED or name in removed
    }
    dropped = [name for name in variables if name not in kept]
    if not dropped:
        return kept, []
    notes = _tuning_notes(variables, kept)
    credentials = [name for name in dropped if looks_like_credential(name)]
    note = (
        f"kept the {len(kept)} variable(s) the advisor reads; {len(dropped)} other(s) "
        "were dropped and are not stored"
    )
    if credentials:
        shown = ", ".join(credentials[:5]) + (", ..." if len(credentials) > 5 else "")
        note += f", among them {len(credentials)} that may hold credentials ({shown})"
    return kept, [note, *notes]


def _tuning_notes(variables: Mapping[str, str], kept: Collection[str]) -> list[str]:
    """One note per hand-set tuning variable that is dropped: kept as set, not tuned here."""
    notes = []
    for name in TUNING_NOT_SET:
        if name not in variables or name in kept:
            continue
        value = variables[name].strip()
        shown = "" if holds_secret(value) or len(value) > _SHOWN_TUNING else f"={value}"
        notes.append(
            f"{name}{shown} is not something the advisor tunes: the server keeps it as you set it"
        )
    return notes
