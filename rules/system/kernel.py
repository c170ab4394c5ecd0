"""Which IO scheduler names a Linux kernel offers for SCSI/SATA disks (sd*).

Two generations of names exist. The legacy single-queue path offered noop, deadline and cfq; the
multi-queue path (blk-mq) offers none, mq-deadline, bfq and kyber, and a legacy name written to a
blk-mq device's queue/scheduler is refused, so a udev rule naming one silently does nothing.
NVMe namespaces were blk-mq from the start and always list "none".
"""

import re
from enum import StrEnum

from rules.inputs.profile import Kernel


class Generation(StrEnum):
    MULTI_QUEUE = "multi-queue"
    LEGACY = "legacy single-queue"


MULTI_QUEUE_NAMES = frozenset({"none", "mq-deadline", "bfq", "kyber"})
LEGACY_NAMES = frozenset({"noop", "deadline", "cfq"})
# Each generation always lists one name the other never has, so a udev rule can test for it:
# blk-mq devices always offer "none", legacy ones always "noop" (built in, not a module).
MARKER: dict[Generation, str] = {Generation.MULTI_QUEUE: "none", Generation.LEGACY: "noop"}

# Upstream, SCSI disks use blk-mq by default from Linux 4.19 (linux-scsi-mq-default) and the legacy
# path and its schedulers were removed in 5.0 (linux-kernel-blk-mq).
SCSI_MQ_DEFAULT_FROM = (4, 19)
LEGACY_REMOVED_IN = (5, 0)
# RHEL 8's 4.18 kernels offer only the multi-queue schedulers (rhel-8-disk-scheduler). A plain
# "4.18" is read as RHEL 8 or a rebuild (Rocky, Alma, Oracle's RHCK): the only 4.18 kernels still
# maintained; a 4.18 with another distribution's suffix is taken as upstream (legacy for SCSI).
RHEL8_RELEASE = (4, 18)
_RHEL8_TEXT = re.compile(r"^\s*4\.18(\.0)?(-[0-9.]+\.el8[0-9_.a-z]*)?\s*$")


def generation(kernel: Kernel | None) -> Generation:
    """The scheduler names this kernel offers for sd* disks; multi-queue when unknown."""
    if kernel is None or _release(kernel) >= SCSI_MQ_DEFAULT_FROM or is_rhel8(kernel):
        return Generation.MULTI_QUEUE
    return Generation.LEGACY


def is_rhel8(kernel: Kernel) -> bool:
    return _release(kernel) == RHEL8_RELEASE and _RHEL8_TEXT.match(kernel.text) is not None


def describe(kernel: Kernel | None) -> str:
    """Why these names: a clause for the scheduler's explanation."""
    if kernel is None:
        return (
            "no kernel was given, so the multi-queue names are used, which every kernel from "
            "4.19 on and RHEL 8's 4.18 offer; the udev rule also carries the legacy name, "
            "applied only where the device lists it (kernels before 4.19 such as RHEL 7's)"
        )
    release = f"Linux {kernel.major}.{kernel.minor}"
    if is_rhel8(kernel):
        return (
            f"{release} is read as RHEL 8's kernel (or a rebuild's), which offers only the "
            "multi-queue schedulers"
        )
    if _release(kernel) >= LEGACY_REMOVED_IN:
        return f"{release} has only the multi-queue schedulers"
    if _release(kernel) >= SCSI_MQ_DEFAULT_FROM:
        return (
            f"{release} puts SCSI and SATA disks on the multi-queue path by default "
            "(unless booted with scsi_mod.use_blk_mq=0)"
        )
    return (
        f"{release} uses the legacy single-queue scheduler names for SCSI and SATA disks "
        "(unless booted with scsi_mod.use_blk_mq=1)"
    )


def _release(kernel: Kernel) -> tuple[int, int]:
    return (kernel.major, kernel.minor)
