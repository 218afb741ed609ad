"""IEX captures in ../shared: sbekit.iex.stats gives what `sbekit iex stats --json` prints."""

import json
import subprocess

import pytest

import sbekit
from conftest import SHARED, need, sbekit_cli

CAPTURES = [
    "go-iex/DEEP10.pcap.gz",
    "go-iex/TOPS16.pcapng.gz",
    "lvfrazao-IEXTools/example1.pcap",
    "deterministic-feed-recovery/20170826-iex-deep.pcap.gz",
]

# Members that depend on the run (wall-clock time), not on the capture.
VOLATILE = {"throughput"}


@pytest.mark.parametrize("rel", CAPTURES)
def test_stats_match_cli(rel):
    path = need(SHARED / "data" / "iex" / rel, "IEX captures")
    got = sbekit.iex.stats(path)
    out = subprocess.run([str(sbekit_cli()), "iex", "stats", "--json", str(path)],
                         capture_output=True, check=False)
    assert out.returncode in (0, 1), out.stderr
    want = json.loads(out.stdout)
    assert got["messages"] > 0
    assert {k: v for k, v in got.items() if k not in VOLATILE} == \
        {k: v for k, v in want.items() if k not in VOLATILE}
    assert set(got["throughput"]) == set(want["throughput"])


def test_stats_errors(tmp_path):
    with pytest.raises(OSError):
        sbekit.iex.stats(tmp_path / "missing.pcap")
    junk = tmp_path / "junk.pcap"
    junk.write_bytes(b"\xd4\xc3\xb2\xa1" + b"\xff" * 100)
    try:
        s = sbekit.iex.stats(junk)
        assert s["error"] is not None or s["messages"] == 0
    except sbekit.SbekitError:
        pass
