"""The closed vocabularies of the profile contract (../shared/design/product.md).

The string values are part of the public contract: never rename one.
"""

from enum import StrEnum


class Flavor(StrEnum):
    MYSQL = "mysql"
    PERCONA = "percona"
    MARIADB = "mariadb"


class Media(StrEnum):
    HDD = "hdd"
    SATA_SSD = "sata_ssd"
    NVME = "nvme"
    # A network block volume: EBS, Persistent Disk / Hyperdisk, Azure managed disks, a SAN LUN.
    # Its IO rate is what the provider provisions, not what the drives behind it could do.
    NETWORK_SSD = "network_ssd"


class VolumeType(StrEnum):
    """Network volume presets (rules/machine/volumes.py holds each one's published figures)."""

    AWS_GP2 = "aws_gp2"
    AWS_GP3 = "aws_gp3"
    AWS_IO1 = "aws_io1"
    AWS_IO2 = "aws_io2"
    GCP_PD_BALANCED = "gcp_pd_balanced"
    GCP_PD_SSD = "gcp_pd_ssd"
    GCP_HYPERDISK_BALANCED = "gcp_hyperdisk_balanced"
    AZURE_PREMIUM_SSD = "azure_premium_ssd"
    AZURE_PREMIUM_SSD_V2 = "azure_premium_ssd_v2"
    AZURE_ULTRA_DISK = "azure_ultra_disk"
    SAN = "san"


class RaidLevel(StrEnum):
    NONE = "none"
    RAID0 = "raid0"
    RAID1 = "raid1"
    RAID5 = "raid5"
    RAID6 = "raid6"
    RAID10 = "raid10"


class ControllerCache(StrEnum):
    NONE = "none"
    WRITE_THROUGH = "write_through"
    WRITE_BACK_BBU = "write_back_bbu"
    # Not in the contract's list but accepted so the engine can warn about it: a write-back
    # cache with no battery or flash backing loses acknowledged writes on power loss.
    WRITE_BACK_UNPROTECTED = "write_back"


class FlashClass(StrEnum):
    """Flash with power-loss protection (enterprise) can acknowledge a sync from its own
    protected cache; consumer flash must reach NAND first, so its fsync is slow."""

    ENTERPRISE = "enterprise"
    CONSUMER = "consumer"


class Filesystem(StrEnum):
    XFS = "xfs"
    EXT4 = "ext4"
    OTHER = "other"


class WorkloadKind(StrEnum):
    OLTP = "oltp"
    READ_WRITE = "read_write"
    UPDATE_HEAVY = "update_heavy"
    BULK_INSERT = "bulk_insert"
    READ_MOSTLY = "read_mostly"


class Durability(StrEnum):
    FULL = "full"
    RELAXED = "relaxed"


HDD_RPMS: tuple[int, ...] = (5400, 7200, 10000, 15000)
DEFAULT_HDD_RPM = 7200
