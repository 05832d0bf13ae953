"""One lint rule per file; each registers itself with :func:`traindoc.lint.registry.lint_rule`.

Files are imported in name order by :func:`traindoc.lint.registry.load_all`. A rule's
docstring has the project's sections (What it detects / Why it happens / Example / How to
fix; How to confirm is added from the rule's ``confirm``); ``traindoc explain NAME`` prints
it, and tests/test_docs.py checks every run rule, lint rule and data check for them.
"""
