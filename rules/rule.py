"""The rule record and what a rule's compute function sees and returns."""

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from rules.inputs.profile import Profile
from rules.machine.storage import ArrayCapability
from rules.output.result import Evidence
from rules.reference.catalog import ServerCatalog

ConfigValue = int | float | str


@dataclass(frozen=True, slots=True)
class Case:
    """One branch of a rule: the one-line reason, the full explanation and its evidence.

    Both texts are `str.format` templates filled from the proposal's facts. An explanation
    that quotes a published throughput figure says so ("published: ...") and sets
    `quotes_published`: with an estimate, the engine then adds what the model expects here
    (rules.estimate.throughput.model_view), so the two stand side by side (issue #42).
    """

    reason: str
    explanation: str
    evidence: tuple[Evidence, ...]
    quotes_published: bool = False


@dataclass(slots=True)
class Proposal:
    """One rule's decision for one variable. Not frozen: a recommendation builds ~40 of these
    and its OsProposals, reads them once and drops them, and nothing assigns to them (a frozen
    constructor sets each field through object.__setattr__). With OsProposal and
    calibration.features.Situation also not frozen, each Setting built once and to_json's
    attrgetter, parse + recommend + estimate + JSON went from 7.56 M to 6.25 M instructions
    (callgrind, PYTHONHASHSEED=0, 10 rounds of the benchmarks.engine scenarios)."""

    name: str  # the variable the version uses for this decision
    value: ConfigValue
    case: str
    facts: Mapping[str, object] = field(default_factory=dict)
    warnings: tuple[str, ...] = ()
    # What the server runs with when the variable is not set, where the server works it out
    # from other values (buffer pool instances from the pool size); None: the catalog's default.
    default: ConfigValue | None = None
    # True where the catalog calls the variable dynamic but this change needs a restart (MySQL
    # refuses to switch the doublewrite buffer on or off at runtime, or to persist it).
    restart: bool = False


@dataclass(slots=True)
class Context:
    """Everything a rule may read. `decided` grows as rules run, in registry order."""

    profile: Profile
    catalog: ServerCatalog
    capability: ArrayCapability
    decided: dict[str, ConfigValue] = field(default_factory=dict)
    # Facts one rule leaves for later ones, e.g. whether the recovery target shortened the redo log.
    notes: dict[str, object] = field(default_factory=dict)


Compute = Callable[[Context], tuple[Proposal, ...]]


@dataclass(frozen=True, slots=True)
class Rule:
    id: str  # kebab-case, stable, never reused
    setting: str  # the decision, named by its best-known variable
    kind: str  # number | bytes | enum | percent
    cases: Mapping[str, Case]
    compute: Compute
    # True: the variable exists only in some flavors and versions, and the rule proposes it only
    # where the catalog has it (innodb_log_writer_threads from MySQL 8.0.22).
    only_where_present: bool = False

    @property
    def sources(self) -> tuple[str, ...]:
        keys = (e.source for case in self.cases.values() for e in case.evidence)
        return tuple(dict.fromkeys(keys))


@dataclass(slots=True)  # built per recommendation, never changed: see Proposal
class OsProposal:
    name: str
    value: str
    devices: str
    case: str
    commands: tuple[str, ...]
    persist: str
    persist_path: str
    facts: Mapping[str, object] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class OsRule:
    id: str
    setting: str
    cases: Mapping[str, Case]
    compute: Callable[[Context], tuple[OsProposal, ...]]

    @property
    def sources(self) -> tuple[str, ...]:
        keys = (e.source for case in self.cases.values() for e in case.evidence)
        return tuple(dict.fromkeys(keys))


def sentence_start(text: str) -> str:
    """`text` as the start of a sentence: its first letter upper-case ("one EBS gp2 volume
    sustains ..." opening a sentence of an explanation)."""
    return text[:1].upper() + text[1:]
