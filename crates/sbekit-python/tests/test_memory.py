"""Memory stays flat over repeated calls (no leak across 1,000 reads)."""

import os

import sbekit
from conftest import md_messages


def rss_kib() -> int:
    with open(f"/proc/{os.getpid()}/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") // 1024


def flat(call, n=1000, warmup=100, slack_kib=8 * 1024):
    for _ in range(warmup):
        call()
    before = rss_kib()
    for _ in range(n):
        call()
    grown = rss_kib() - before
    assert grown < slack_kib, f"RSS grew by {grown} KiB over {n} calls"


def test_decode_all_flat(md_schema):
    buf = b"".join(md_messages(200, seed=4))  # about 200 dicts with nested lists per call
    flat(lambda: md_schema.decode_all(buf))


def test_decode_errors_flat(md_schema):
    bad = md_messages(1)[0][:-3]

    def call():
        try:
            md_schema.decode(bad)
        except sbekit.DecodeError:
            pass

    flat(call)
