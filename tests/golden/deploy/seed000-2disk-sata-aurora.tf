# InnoDB IO Advisor: Terraform Aurora MySQL parameter groups
# Ruleset 2026.2, calibration none
# Inputs: mysql 8.0.36 · 2 GiB RAM · 2 cores · 2 × hdd 7200 rpm raid0, no write cache · xfs · oltp, 2 GiB data, 8 clients, durability relaxed
# Permalink: /r/2556ff24270140030bcf/
# Warning: MySQL 8.0 reached its end of life in April 2026 (Oracle: https://docs.oracle.com/cd/E17952_01/mysql-8.0-relnotes-en/): it gets no more security or bug fixes. Plan to upgrade to MySQL 8.4 or 9.7, the long-term releases still supported (lifecycle checked 2026-11-29).
# Needs a restart to take effect: none (all of these can also be set online)
# Left out, already this server's defaults: innodb_random_read_ahead = OFF (set options.include_defaults to write them)
# Use: put these resources in a Terraform configuration with the AWS provider and point
# the aws_rds_cluster and its aws_rds_cluster_instance resources at them:
# db_cluster_parameter_group_name = aws_rds_cluster_parameter_group.innodb_io_advisor.name
# db_parameter_group_name = aws_db_parameter_group.innodb_io_advisor.name
# What Aurora takes follows the Aurora User Guide, "Aurora MySQL configuration parameters" (its cluster-level and instance-level tables and its list of MySQL parameters that don't apply; the page as of 2023-06-10), https://docs.aws.amazon.com/AmazonRDS/latest/AuroraUserGuide/AuroraMySQL.Reference.ParameterGroups.html
# Aurora manages the hosts and the storage: the IO scheduler, read-ahead, sysctl, transparent huge pages, NUMA and mount options of this result's operating-system advice do not apply.
# ApplyMethod is immediate for what MySQL 8.0 changes online, pending-reboot otherwise; AWS takes immediate only for a parameter it lists as dynamic, so should a request be refused for that, send that parameter with pending-reboot.
# No recommended setting is one Aurora MySQL 3 lets a user change at the cluster level: innodb-io-advisor-2556ff242701-cluster keeps the aurora-mysql8.0 defaults.
# innodb_buffer_pool_size is a formula of DBInstanceClassMemory (the instance class memory less what RDS keeps for itself), the share of the profile's RAM recommended.

resource "aws_rds_cluster_parameter_group" "innodb_io_advisor" {
  name        = "innodb-io-advisor-2556ff242701-cluster"
  family      = "aurora-mysql8.0"
  description = "InnoDB IO Advisor 2556ff24270140030bcf"
}

resource "aws_db_parameter_group" "innodb_io_advisor" {
  name        = "innodb-io-advisor-2556ff242701"
  family      = "aurora-mysql8.0"
  description = "InnoDB IO Advisor 2556ff24270140030bcf"

  # 44% of RAM, lowered so that the memory 8 connections and the OS need fits
  parameter {
    name         = "innodb_buffer_pool_size"
    value        = "{DBInstanceClassMemory*7/16}"
    apply_method = "immediate"
  }

  # strictest read-ahead: random OLTP reads waste prefetched extents
  parameter {
    name         = "innodb_read_ahead_threshold"
    value        = "64"
    apply_method = "immediate"
  }

  # 400 per instance: 1 x 400 = 400 pages/s stays within the 400 writes/s of innodb_io_capacity_max
  parameter {
    name         = "innodb_lru_scan_depth"
    value        = "400"
    apply_method = "immediate"
  }
}

# Not set: Aurora MySQL 3 does not take these
# innodb_buffer_pool_instances = 1: on the guide's list of MySQL parameters that don't apply to Aurora MySQL: Aurora's architecture differs from MySQL's here
# innodb_io_capacity = 200: on the guide's list of MySQL parameters that don't apply to Aurora MySQL: Aurora's storage layer builds and writes the pages from the redo the instance sends, so there is no page flushing on the instance for this to pace
# innodb_io_capacity_max = 400: on the guide's list of MySQL parameters that don't apply to Aurora MySQL: Aurora's storage layer builds and writes the pages from the redo the instance sends, so there is no page flushing on the instance for this to pace
# innodb_read_io_threads = 4: Aurora MySQL 3 does not let a user change this instance-level parameter
# innodb_write_io_threads = 4: on the guide's list of MySQL parameters that don't apply to Aurora MySQL: Aurora's storage layer builds and writes the pages from the redo the instance sends; the instance has no data files of its own to open or write
# innodb_flush_method = O_DIRECT: on the guide's list of MySQL parameters that don't apply to Aurora MySQL: Aurora's storage layer builds and writes the pages from the redo the instance sends; the instance has no data files of its own to open or write
# innodb_doublewrite = ON: on the guide's list of MySQL parameters that don't apply to Aurora MySQL: Aurora's storage layer builds and writes the pages from the redo the instance sends, so no page is written torn for a doublewrite to repair
# innodb_use_fdatasync = ON: in neither of the guide's tables of Aurora MySQL parameters (cluster and instance level), so no parameter group takes it
# innodb_redo_log_capacity = 805306368: on the guide's list of MySQL parameters that don't apply to Aurora MySQL: Aurora's storage layer builds and writes the pages from the redo the instance sends; there are no redo log files on the instance to size
# innodb_log_buffer_size = 16777216: on the guide's list of MySQL parameters that don't apply to Aurora MySQL: Aurora's architecture differs from MySQL's here
# innodb_log_writer_threads = OFF: in neither of the guide's tables of Aurora MySQL parameters (cluster and instance level), so no parameter group takes it
# innodb_max_dirty_pages_pct = 90: on the guide's list of MySQL parameters that don't apply to Aurora MySQL: Aurora's storage layer builds and writes the pages from the redo the instance sends, so there is no page flushing on the instance for this to pace
# innodb_max_dirty_pages_pct_lwm = 10: in neither of the guide's tables of Aurora MySQL parameters (cluster and instance level), so no parameter group takes it
# innodb_page_cleaners = 1: in neither of the guide's tables of Aurora MySQL parameters (cluster and instance level), so no parameter group takes it
# innodb_flush_log_at_trx_commit = 2: Aurora MySQL 3 always uses 1 and does not let a user change it: the relaxed value cannot be had
# sync_binlog = 1000: Aurora MySQL 3 does not let a user change this instance-level parameter
# innodb_flush_neighbors = 1: on the guide's list of MySQL parameters that don't apply to Aurora MySQL: Aurora's storage layer builds and writes the pages from the redo the instance sends, so there are no neighbouring page writes to group
