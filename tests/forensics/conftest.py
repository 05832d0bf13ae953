"""One monitored run per fault script, shared by the tests that read it (each run costs a
`traindoc run` plus its replay: seconds, so they are not repeated per test)."""

from pathlib import Path

import pytest

from conftest import run_cli

SCRIPTS = Path(__file__).resolve().parent / "scripts"


@pytest.fixture(scope="session")
def monitored(tmp_path_factory):
    done = {}

    def get(script, *args):
        key = (script, *args)
        if key not in done:
            run = tmp_path_factory.mktemp(script) / "run"
            done[key] = (run_cli("run", "--out", run, SCRIPTS / f"{script}.py", *args), run)
        return done[key]

    return get
