"""Shared by the tests of `rules.current`: the seed article's my.cnf, error capture, and the
strategies for generated names and values."""

import pytest
from hypothesis import strategies as st

from rules.current import CurrentParseError, parse_current

# The "my.cnf settings for the v4 Google patch" from seed 000 (Callaghan 2009), as published:
# no section header, bare booleans and skip_ prefixes.
GOOGLE_V4_MYCNF = """\
innodb_buffer_pool_size=1200M
innodb_log_file_size=1900M
innodb_flush_log_at_trx_commit=2
innodb_io_capacity=250
innodb_read_io_threads=2
innodb_write_io_threads=2
innodb_max_dirty_pages_pct=80 or 20
innodb_ibuf_max_pct_of_buffer=10
skip_innodb_ibuf_reads_sync
innodb_doublewrite=0
innodb_file_per_table
allow_view_trigger_sp_subquery
skip_innodb_readahead_random
skip_innodb_readahead_sequential
innodb_flush_method=O_DIRECT
innodb_check_max_dirty_foreground
"""
ANY_CHARACTER = st.characters(codec=None, categories=None, exclude_categories=())
SPECIAL_PREFIXES = ("skip_", "disable_", "enable_", "maximum_", "loose_", "set_variable")
NAMES = st.from_regex(r"[a-z][a-z0-9_]{0,40}", fullmatch=True).filter(
    lambda name: not name.startswith(SPECIAL_PREFIXES)
)
VALUES = st.text(
    st.characters(min_codepoint=0x20, max_codepoint=0x7E) | st.sampled_from("éß日ü"),
    max_size=30,
)


def error_of(raw: object) -> CurrentParseError:
    with pytest.raises(CurrentParseError) as caught:
        parse_current(raw)  # type: ignore[arg-type]
    return caught.value
