"""The public API: small, sorted, and stable however its submodules get imported."""

from conftest import run_python


def test_all_is_sorted_and_resolves_without_torch_until_needed():
    code = (
        "import sys, traindoc\n"
        "assert traindoc.__all__ == sorted(traindoc.__all__), traindoc.__all__\n"
        "assert 'torch' not in sys.modules\n"
        "import traindoc.cli; traindoc.cli.build_parser()\n"
        "assert 'torch' not in sys.modules, 'building the CLI parser imported torch'\n"
        "from traindoc.diagnose import Diagnosis\n"
        "import traindoc.diagnose, traindoc.lint\n"
        "assert callable(traindoc.diagnose) and traindoc.diagnose.__name__ == 'diagnose'\n"
        "assert callable(traindoc.lint)\n"
        "for n in traindoc.__all__: getattr(traindoc, n)\n"
        "print('ok')\n"
    )
    r = run_python("-c", code)
    assert r.returncode == 0 and r.stdout.strip() == "ok", r.stderr
