"""How verdicts re-rank a diagnosis."""

from traindoc.confirm.apply import apply
from traindoc.diagnose import rank
from traindoc.findings import Finding


def cause(name, conf, sev="error"):
    return Finding(name, sev, f"{name} message", confidence=conf)


def res(cause, verdict, exp="lr-scale", effect=0.3):
    return {"cause": cause, "experiment": exp, "change": "c", "verdict": verdict, "text": "t", "effect": effect}


SYM = [Finding("loss-nonfinite", "error", "nan")]


def test_confirmed_rises_and_refuted_drops():
    causes = [cause("unstable-op", 0.9), cause("lr-too-high", 0.6)]
    data = {"results": [res("lr-too-high", "confirmed"), res("unstable-op", "refuted", "fp32")],
            "runs": {"baseline": {"first_nonfinite": 10}}}
    out, _ = apply(causes, SYM, data)
    ranked = rank(out)
    assert [f.name for f in ranked] == ["lr-too-high", "unstable-op"]
    assert ranked[0].severity == "error" and ranked[0].evidence[-1]["verdict"] == "confirmed"
    assert ranked[1].severity in ("warning", "info") and "refuted by experiment fp32" in ranked[1].message


def test_confirmed_cause_no_rule_named_is_added():
    out, _ = apply([], SYM, {"results": [res("exploding-gradient", "confirmed", "clip-grads")]})
    assert [f.name for f in out] == ["exploding-gradient"] and out[0].severity == "error" and out[0].fix


def test_quiet_run_gets_a_warning_and_slow_learning():
    data = {"results": [res("lr-too-low", "confirmed", effect=0.2)],
            "runs": {"baseline": {"first_nonfinite": None}}}
    out, sym = apply([], [], data)
    assert out[0].name == "lr-too-low" and out[0].severity == "warning"
    assert [s.name for s in sym] == ["slow-learning"]


def test_inconclusive_changes_nothing_but_the_evidence():
    c = cause("lr-too-high", 0.7)
    out, sym = apply([c], SYM, {"results": [res("lr-too-high", "inconclusive")]})
    assert out[0].confidence == 0.7 and out[0].severity == "error" and len(out[0].evidence) == 1
    assert sym == SYM


def test_no_data_is_identity():
    c = [cause("lr-too-high", 0.7)]
    assert apply(c, SYM, None) == (c, SYM)


def test_specific_change_outranks_the_dampers():
    causes = [cause("missing-zero-grad", 0.9), cause("lr-too-high", 0.53)]
    data = {"results": [res("missing-zero-grad", "confirmed", "force-zero-grad"),
                        res("lr-too-high", "confirmed", "lr-scale"),
                        res("exploding-gradient", "confirmed", "clip-grads")]}
    ranked = rank(apply(causes, SYM, data)[0])
    assert [f.name for f in ranked][0] == "missing-zero-grad"
    assert all(f.confidence < 0.9 for f in ranked[1:])
    assert next(f for f in ranked if f.name == "exploding-gradient").severity == "warning"


def test_shuffle_labels_needs_the_one_batch_control():
    from traindoc.confirm.run import Result, _controls

    def results(fit_verdict):
        rs = [Result("label-misaligned", "shuffle-labels", "targets shuffled", "confirmed", "same loss", 1.0)]
        if fit_verdict:
            rs.append(Result("loss-mismatch", "overfit-batch", "one batch repeated", fit_verdict, "t", 0.5))
        return rs

    ok = results("refuted")  # the program fits one batch: the labels are what it cannot learn from
    _controls(ok)
    assert ok[0].verdict == "confirmed"
    for fit in ("inconclusive", None):  # it learns from nothing: shuffling says nothing
        rs = results(fit)
        _controls(rs)
        assert rs[0].verdict == "inconclusive"


def test_several_variants_of_one_cause_merge():
    from traindoc.confirm.run import Result, _merge

    r = lambda v, lab: Result("lr-too-low", "lr-scale", lab, v, lab, 1.0)  # noqa: E731
    assert [x.verdict for x in _merge([r("inconclusive", "x10"), r("confirmed", "x100")])] == ["confirmed"]
    # variants that disagree: neither wins
    assert [x.verdict for x in _merge([r("refuted", "x10"), r("confirmed", "x100")])] == ["inconclusive"]
    assert [x.verdict for x in _merge([r("refuted", "x10"), r("refuted", "x100")])] == ["refuted"]
    m = _merge([r("refuted", "x10"), r("inconclusive", "x100")])
    assert [x.verdict for x in m] == ["inconclusive"] and m[0].label == "x10 / x100"


def test_a_confirmed_cause_outranks_an_untested_guess_of_any_confidence():
    causes = [cause("params-not-updated", 0.95), cause("loss-reduction", 0.4)]
    data = {"results": [res("loss-reduction", "confirmed", "mean-reduction")],
            "runs": {"baseline": {"first_nonfinite": 10}}}
    ranked = rank(apply(causes, SYM, data)[0])
    assert [f.name for f in ranked] == ["loss-reduction", "params-not-updated"]
    # a damper that merely also helps does not jump over the specific confirmed change
    data["results"].append(res("lr-too-high", "confirmed", "lr-scale"))
    ranked = rank(apply(causes + [cause("lr-too-high", 0.5)], SYM, data)[0])
    assert ranked[0].name == "loss-reduction" and [f.name for f in ranked].index("lr-too-high") > 0


def test_among_confirmed_causes_the_larger_measured_effect_ranks_first():
    # a raw series in the hundreds: the LR range test and lr x100 confirm lr-too-low
    # (end loss x0.22), standardising the data confirms data-unnormalized (x0.003)
    data = {"results": [
        {**res("lr-too-low", "confirmed", "lr-range-test", 0.001), "ratio": 0.22},
        {**res("data-unnormalized", "confirmed", "standardize-inputs", 0.003), "ratio": 0.003},
    ], "runs": {"baseline": {"first_nonfinite": None}}}
    ranked = rank(apply([], [Finding("loss-plateau", "warning", "flat")], data)[0])
    assert [f.name for f in ranked] == ["data-unnormalized", "lr-too-low"]
    assert ranked[0].confidence > ranked[1].confidence >= 0.9
    # the same when a rule had named the weaker one with more confidence
    ranked = rank(apply([cause("lr-too-low", 0.97, "warning")], [], data)[0])
    assert [f.name for f in ranked] == ["data-unnormalized", "lr-too-low"]
    # a confirmation without a measured ratio counts as the weakest decisive one
    data["results"][1]["ratio"] = None
    data["results"][1]["effect"] = 0.6
    ranked = rank(apply([], [], data)[0])
    assert [f.name for f in ranked] == ["lr-too-low", "data-unnormalized"]


def test_merge_keeps_the_strongest_confirming_ratio():
    from traindoc.confirm.run import Result, _merge

    m = _merge([Result("lr-too-low", "lr-range-test", "sweep", "confirmed", "t", 0.001, None),
                Result("lr-too-low", "lr-scale", "x10", "inconclusive", "t", 0.8, None),
                Result("lr-too-low", "lr-scale", "x100", "confirmed", "t", 0.2, 0.2)])
    assert len(m) == 1 and m[0].experiment == "lr-range-test" and m[0].ratio == 0.2


def test_a_bug_fix_that_worsens_the_loss_of_a_symptomless_run_does_not_refute():
    """90 in bench/real: uncleared gradients under Adam reach a lower heatmap MSE than
    cleared ones (x3.7) and a worse keypoint accuracy: with no loss symptom in the run, the
    loss cannot speak against the bug. A neutral result still refutes; a knob (the
    learning rate) still refutes; a run with a symptom still refutes."""
    mzg = cause("missing-zero-grad", 0.92, "warning")
    worse = res("missing-zero-grad", "refuted", "force-zero-grad", effect=3.7)
    out, _ = apply([mzg], [], {"results": [worse]})
    assert out[0].confidence == 0.92 and "cannot refute" in out[0].evidence[-1]["note"]
    out, _ = apply([mzg], [], {"results": [res("missing-zero-grad", "refuted", "force-zero-grad", effect=1.0)]})
    assert out[0].confidence < 0.3
    out, _ = apply([cause("lr-too-high", 0.9)], [], {"results": [res("lr-too-high", "refuted", "lr-scale", 3.0)]})
    assert out[0].confidence < 0.3
    out, _ = apply([mzg], [Finding("loss-divergence", "warning", "up")], {"results": [worse]})
    assert out[0].confidence < 0.3


def test_a_booster_does_not_outrank_a_specific_error_a_rule_named():
    # MSE on softmax outputs (a rule's error): x10 the rate and standardised inputs both
    # speed it up, as they would any slow learner; the rule's cause stays first
    causes = [cause("loss-mismatch", 0.7)]
    data = {"results": [res("lr-too-low", "confirmed", "lr-scale", 0.02),
                        res("data-unnormalized", "confirmed", "standardize-inputs", 0.2),
                        res("loss-mismatch", "inconclusive", "overfit-batch", 0.8)]}
    ranked = rank(apply(causes, [], data)[0])
    assert ranked[0].name == "loss-mismatch"
    assert {f.name: f.confidence for f in ranked[1:]} == {"lr-too-low": 0.4, "data-unnormalized": 0.4}
    assert "also helps" in ranked[1].evidence[-1]["note"]


def test_a_booster_still_outranks_a_warning_or_a_refuted_error():
    for causes, extra in (([cause("dead-relu", 0.45, "warning")], []),
                          ([cause("loss-mismatch", 0.7)], [res("loss-mismatch", "refuted", "overfit-batch", 1e-4)])):
        data = {"results": [res("lr-too-low", "confirmed", "lr-scale", 0.02), *extra]}
        ranked = rank(apply(causes, [], data)[0])
        assert ranked[0].name == "lr-too-low" and ranked[0].confidence >= 0.9, [(f.name, f.confidence) for f in ranked]
