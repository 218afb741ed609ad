"""``import sbekit.spark`` without its extra names the extra to install (issue 35)."""

from __future__ import annotations

import sys

import pytest

import sbekit


@pytest.mark.parametrize("missing", ["pyarrow", "pyspark", "pandas"])
def test_import_without_the_extra_names_it(monkeypatch: pytest.MonkeyPatch, missing: str) -> None:
    # A None entry in sys.modules makes `import name` raise ImportError, as if not installed.
    monkeypatch.setitem(sys.modules, missing, None)
    monkeypatch.delitem(sys.modules, "sbekit.spark", raising=False)
    with pytest.raises(ModuleNotFoundError) as e:
        __import__("sbekit.spark")
    assert "sbekit[spark]" in str(e.value)
    assert missing in str(e.value)
    assert e.value.name == missing or missing in str(e.value)
    # The rest of the package still imports without the extra.
    assert sbekit.Schema is not None
