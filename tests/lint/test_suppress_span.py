"""`# traindoc: ignore[...]` on any line of a multi-line statement."""


import pytest

from traindoc.lint.engine import lint_source

TRIGGER = "import torch\ny = torch.log(torch.softmax(x, -1))\n"


@pytest.mark.parametrize("src", [
    # on the statement's first line
    "import torch\ny = torch.log(  # traindoc: ignore[log-of-softmax]\n    torch.softmax(x, -1))\n",
    ("import torch\nimport torch.nn.functional as F\nloss = F.cross_entropy(  # traindoc: ignore[TD503]\n"
    "    torch.softmax(x, -1),\n    y,\n)\n"),
    "import torch\nloss = (  # traindoc: ignore[log-of-softmax]\n    torch.log(torch.softmax(x, -1))\n)\n",
    # on a later line of the finding's span / of the statement
    "import torch\ny = torch.log(\n    torch.softmax(x, -1))  # traindoc: ignore[log-of-softmax]\n",
    ("import torch\nimport torch.nn.functional as F\nloss = F.cross_entropy(\n    torch.softmax(x, -1),\n"
    "    y,\n)  # traindoc: ignore\n"),
])
def test_suppression_anywhere_on_a_multi_line_statement(src):
    assert lint_source(src) == []


def test_suppression_does_not_leak_to_other_statements():
    src = ("import torch\ny = torch.log(\n    torch.softmax(x, -1))\n# traindoc: ignore\n"
           "z = 1  # traindoc: ignore\nfor i in range(3):\n    w = 1  # traindoc: ignore\n")
    assert [f.location["line"] for f in lint_source(src)] == [2]
