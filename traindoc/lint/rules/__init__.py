"""One lint rule per file; each registers itself with :func:`traindoc.lint.registry.lint_rule`.

Files are imported in name order by :func:`traindoc.lint.registry.load_all`. A rule's
docstring has the same four sections every time (What it detects / Why it breaks
training / Example / How to fix; How to confirm is added from the rule's ``confirm``); ``traindoc explain NAME`` prints it.
"""
