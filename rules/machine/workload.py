"""How much each workload kind writes, relative to order-processing OLTP.

A read-mostly server dirties few pages and writes little redo, so the write-sized settings
(io_capacity, the redo log) get half the OLTP figure; the manual asks to keep io_capacity as low
as practical (mysql-manual-io-capacity). The 0.5 itself is advisor-engineering-judgement: no
published figure ties the two.
"""

from rules.inputs.enums import WorkloadKind

WRITE_INTENSITY: dict[WorkloadKind, float] = {
    WorkloadKind.OLTP: 1.0,
    WorkloadKind.READ_WRITE: 1.0,
    WorkloadKind.UPDATE_HEAVY: 1.0,
    WorkloadKind.BULK_INSERT: 1.0,
    WorkloadKind.READ_MOSTLY: 0.5,
}
