"""The benchmark corpus as a test: traindoc lint has no false positive on it and misses
only the pitfall it is documented to miss (a model handed in from another file)."""

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
KNOWN_MISSES = {"bench/lint_corpus/trainer_class.py:29 softmax-before-cross-entropy"}


def _bench():
    spec = importlib.util.spec_from_file_location("lint_corpus_bench", ROOT / "bench" / "lint_corpus.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_corpus_precision_and_recall():
    b = _bench()
    files, labels = b.corpus()
    files = [f.resolve() for f in files]
    labels = {(str(Path(f).resolve()), ln, n) for f, ln, n in labels}
    assert len(labels) >= 70 and any("bench/lint_corpus" in f for f, _, _ in labels)
    found, _ = b.run_traindoc(files)
    per_rule, other, false_pos, missed = b.score(found, labels, [*b.load_all(), "unparsable-file"])
    assert false_pos == []
    assert set(missed) <= KNOWN_MISSES
    assert all(hits > 0 for hits, _, _ in per_rule.values())   # every rule finds something in the corpus
