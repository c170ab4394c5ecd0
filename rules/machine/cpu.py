"""The CPUs a server may use: the host's cores, or a container's CPU limit when it is lower.

Thread counts (IO threads, log writer threads, buffer pool instances and so page cleaners)
follow the limit: threads beyond the CPU time a quota allows only queue for it. MySQL itself
reads a container's CPU limit for the values it derives from the logical CPUs only from 9.3
(mysql-manual-container-detection); before, it counts the host's CPUs.
"""

from rules.inputs.profile import Hardware

# MySQL 9.3.0 is the first release that sizes its CPU-derived defaults from a container's CPU
# limit (mysql-manual-container-detection: "As of MySQL 9.3.0, if installed in a container, the
# server automatically reads the container's CPU and memory resource limits").
CONTAINER_AWARE_FROM = (9, 3)


def cores_text(hardware: Hardware) -> str:
    """'16 cores', or 'the 1.5 CPUs of its limit (64 cores on the host)'."""
    if hardware.is_cpu_limited:
        return (
            f"the {hardware.usable_cores:g} CPUs of its limit ({hardware.cpu_cores} cores on "
            "the host)"
        )
    return f"{hardware.cpu_cores} cores" if hardware.cpu_cores != 1 else "1 core"
