"""Thresholds: defaults, traindoc.toml before pyproject.toml, per-column values, errors."""

import pytest

from traindoc.data.config import DEFAULTS, load
from traindoc.errors import UserError


def test_traindoc_toml_wins_and_columns_override(tmp_path):
    (tmp_path / "pyproject.toml").write_text("[tool.traindoc.data]\noutlier_k = 5.0\n")
    assert load(start=str(tmp_path)).get("outlier_k") == 5.0
    (tmp_path / "traindoc.toml").write_text(
        "[data]\nlabel = 'clicked'\nexclude = ['id']\n[data.columns.seq]\nmax_length = 1024\n"
        "[data.severity]\nclass-imbalance = 'off'\n")
    cfg = load(start=str(tmp_path))
    assert cfg.source.endswith("traindoc.toml") and cfg.label == "clicked" and cfg.exclude == ("id",)
    assert cfg.get("max_length", "seq") == 1024 and cfg.get("max_length", "other") is None
    assert cfg.get("outlier_k") == DEFAULTS["outlier_k"] and cfg.severity == {"class-imbalance": "off"}


@pytest.mark.parametrize("text, needle", [
    ("[data]\nmax_lenght = 3\n", "max_lenght"),
    ("[data.severity]\nnot-a-check = 'error'\n", "not-a-check"),
    ("[data.severity]\ndata-outlier = 'fatal'\n", "one of"),
    ("[data\n", "not valid TOML"),
])
def test_bad_config_is_a_user_error(tmp_path, text, needle):
    (tmp_path / "traindoc.toml").write_text(text)
    with pytest.raises(UserError, match=needle):
        load(start=str(tmp_path))
