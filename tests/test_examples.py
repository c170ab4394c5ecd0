"""docs/examples/ holds what the code writes today for each deploy tool
(`python scripts/make_examples.py` rewrites it)."""

from pathlib import Path

from scripts.make_examples import EXAMPLES, EXAMPLES_DIR, example_files


def test_every_example_is_current() -> None:
    files = example_files()
    assert len(files) == len(EXAMPLES) == 9
    for target, text in files.items():
        hint = f"run `python scripts/make_examples.py` and review {target.name}"
        assert target.exists(), f"{target} is missing: {hint}"
        assert target.read_bytes().decode("utf-8") == text, f"{target.name} changed: {hint}"


def test_no_example_is_left_over() -> None:
    written = set(example_files())
    shown = {p for p in EXAMPLES_DIR.iterdir() if p.name != "README.md"}
    assert shown == written, sorted(Path(p).name for p in shown ^ written)
