"""innodb_doublewrite: the second copy that lets InnoDB repair a page torn by a power cut.

ON everywhere; MariaDB's `fast` (from 11.0.6: the doublewrite copy stays, the data files skip
their fsync) only behind a battery-backed controller cache, where a completed write is already
safe. OFF would be right only on storage that writes a whole page atomically, and the profile
has no way to say that, so the advisor never recommends it.
"""

from rules.inputs.enums import Flavor
from rules.output.result import Evidence
from rules.reference.defaults import default_note
from rules.rule import Case, Context, Proposal, Rule

NAME = "innodb_doublewrite"
FAST = "fast"  # MariaDB 11.0.6+ (mariadb-mdev-33545; catalog)
# MySQL 8.0.30+ calls the variable dynamic, but refuses to switch the buffer on or off at run time
# and to persist it (catalog note: "Please shutdown", "non persistent"); a restart always works.
RESTART = True


def compute(ctx: Context) -> tuple[Proposal, ...]:
    spec = ctx.catalog.get(NAME)
    if spec is None:
        return ()
    storage = ctx.profile.hardware.storage
    mariadb = ctx.profile.server.flavor is Flavor.MARIADB
    if mariadb and FAST in spec.values and storage.has_protected_write_cache:
        return (Proposal(NAME, FAST, "fast", {"default": ""}, restart=RESTART),)
    case = "on-bbu-no-fast" if mariadb and storage.has_protected_write_cache else "on"
    facts = {"default": default_note(ctx.catalog, NAME, "ON")}
    return (Proposal(NAME, "ON", case, facts, restart=RESTART),)


_WHAT = (
    "InnoDB writes each page it flushes twice: first, with the other pages of the batch, into "
    "the doublewrite buffer in one sequential write, then to its own place. A power cut in the "
    "middle of a page write can leave that page half old and half new, which no redo can "
    "repair; with the doublewrite buffer, recovery takes the intact copy instead. "
)
_NO_ATOMIC = (
    "Turning it OFF is safe only on storage that writes a whole page atomically, which nothing "
    "in this profile says, so it stays ON{default}. "
)
_EV_MANUAL = Evidence(
    "mysql-manual-doublewrite",
    "The doublewrite copy lets recovery repair a torn page, and costs one sequential write and "
    "one fsync per batch rather than twice the IO.",
)
_EV_COST = Evidence(
    "percona-lab-2018-tpcc-mysql8",
    "Turning doublewrite off raised sysbench-tpcc from 817 to 1042 tps with a 5 GB pool and "
    "did not help with an 80 GB one.",
)
_EV_MARIADB = Evidence(
    "mariadb-mdev-33545",
    "MariaDB's innodb_doublewrite=fast keeps the doublewrite buffer but skips the fsync of "
    "the data files; OFF assumes page writes are atomic.",
)
RULE = Rule(
    id="doublewrite-on-unless-atomic-writes",
    setting=NAME,
    kind="enum",
    cases={
        "on": Case(
            "ON{default}: a power cut cannot leave a torn page behind",
            _WHAT + _NO_ATOMIC + "Its cost is an extra sequential write per batch of pages, "
            "felt most when the buffer pool is small and the server writes many pages.",
            (_EV_MANUAL, _EV_COST),
        ),
        "on-bbu-no-fast": Case(
            "ON{default}: a power cut cannot leave a torn page behind",
            _WHAT + _NO_ATOMIC + "With a battery-backed cache MariaDB 11.0.6 and later offer "
            "'fast', which skips the data files' fsync; this version does not have it.",
            (_EV_MANUAL, _EV_MARIADB),
        ),
        "fast": Case(
            "fast: the doublewrite copy stays, the data files skip their fsync behind the "
            "battery-backed cache",
            _WHAT + "Behind a battery-backed controller cache a completed write is already "
            "durable, so 'fast' keeps the doublewrite protection and drops the fsync of the "
            "data files, MariaDB's counterpart of O_DIRECT_NO_FSYNC. If the battery fails or "
            "goes into a learning cycle the controller turns write-through; switch back to ON "
            "if you cannot monitor it.",
            (_EV_MARIADB, _EV_MANUAL),
        ),
    },
    compute=compute,
)
