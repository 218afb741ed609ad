"""The README's Python example runs and prints what its comments say."""

import contextlib
import io
import os
import re

from conftest import REPO


def test_readme_example(tmp_path):
    text = (REPO / "README.md").read_text()
    block = re.search(r"<!-- python-example.*?```python\n(.*?)```", text, re.S).group(1)
    code = block.replace('"schemas/', f'"{REPO}/schemas/')
    out = io.StringIO()
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        with contextlib.redirect_stdout(out):
            exec(compile(code, "README.md", "exec"), {})
    finally:
        os.chdir(cwd)
    printed = out.getvalue().splitlines()
    expected = [c.split("#", 1)[1].strip() for c in block.splitlines()
                if c.startswith("print(") and "#" in c]
    assert printed == expected
