"""`traindoc explain` works for every documented name, from the CLI and from Python."""

from conftest import run_cli, run_python


def test_explain_lint_name_from_a_fresh_python():
    # the lint names are registered when the lint docs load: explain() must load them first
    r = run_python("-c", "from traindoc.explain import explain; print(explain('unguarded-zero'))")
    assert r.returncode == 0, r.stderr
    assert "What it detects" in r.stdout


def test_explain_symptom_and_unknown_name():
    r = run_cli("explain", "loss-spike")
    assert r.returncode == 0 and "How to confirm" in r.stdout
    r = run_cli("explain", "no-such-name")
    assert r.returncode == 2 and r.stderr.count("\n") == 1
