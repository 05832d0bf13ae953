"""The documentation cannot drift from the code: the taxonomy page is generated from it,
every check's doc has the same sections, every link resolves, the README stays short."""

import re
from pathlib import Path

import pytest

from traindoc.explain import all_docs, markdown

ROOT = Path(__file__).resolve().parent.parent


def test_taxonomy_page_is_generated_from_the_code():
    assert (ROOT / "docs" / "taxonomy.md").read_text() == markdown(), \
        "regenerate: traindoc explain --markdown > docs/taxonomy.md"


@pytest.mark.parametrize("name,source,doc", [(n, s, d) for n, ds in sorted(all_docs().items()) for s, d in ds])
def test_every_check_doc_has_the_four_sections(name, source, doc):
    # one convention for run rules, lint rules and data checks (lint adds "Example:")
    heads = set(re.findall(r"^\s*([A-Z][A-Za-z ]+):", doc, re.M))
    for section in ("What it detects", "Why it happens", "How to confirm", "How to fix"):
        assert section in heads, (name, source, section)


def test_every_relative_link_resolves_and_the_readme_is_short():
    pages = [ROOT / "README.md", ROOT / "CONTRIBUTING.md", *sorted((ROOT / "docs").glob("*.md"))]
    for page in pages:
        for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", page.read_text()):
            if "://" in target:
                continue
            assert (page.parent / target).exists(), f"{page.name}: broken link {target}"
    assert len((ROOT / "README.md").read_text().splitlines()) < 260
