"""The README's Python example runs and prints what its comments say."""

from conftest import run_readme_example


def test_readme_example(tmp_path):
    block, printed = run_readme_example("python-example", tmp_path)
    expected = [c.split("#", 1)[1].strip() for c in block.splitlines()
                if c.startswith("print(") and "#" in c]
    assert printed.splitlines() == expected
