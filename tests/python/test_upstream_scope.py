"""The suite runner's out-of-scope list (tests/upstream/out_of_scope.txt) for tests that read
files of cuTile's repository the stored tree lacks: test_readme_example.py reads cuTile's
README.md, which ../shared/upstream/cutile-python (samples/ and test/ only) does not hold."""

import sys
from pathlib import Path

UPSTREAM_TOOLS = Path(__file__).resolve().parents[1] / "upstream"
sys.path.insert(0, str(UPSTREAM_TOOLS))
import scope  # noqa: E402

STORED_TREE = Path(__file__).resolve().parents[3] / "shared" / "upstream" / "cutile-python"


def test_readme_example_is_out_of_scope_with_its_reason():
    entry = scope.Scope(scope.load()).test_entry("test_readme_example.py::test_readme")
    assert entry is not None and "README.md" in entry.reason


def test_the_stored_tree_indeed_lacks_cutiles_readme():
    # Should cuTile's README.md ever be stored, the entry above must go: the test could run.
    if not (STORED_TREE / "test").is_dir():
        import pytest
        pytest.skip(f"no stored cuTile tree at {STORED_TREE}")
    assert not (STORED_TREE / "README.md").exists()
