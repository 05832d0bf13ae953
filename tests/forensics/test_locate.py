"""first_nonfinite: the right op, module, phase and rows for each NaN mechanism."""

import json

import pytest
import torch
from torch import nn

from traindoc.forensics import examples as E
from traindoc.forensics.locate import first_nonfinite

MECHANISMS = [E.make_exp_overflow, E.make_log_zero, E.make_masked_row, E.make_nan_input, E.make_fp16_overflow]


def locate(ex, **kw):
    return first_nonfinite(ex.forward_loss, model={"": ex.model, "criterion": ex.loss},
                           batch_size=len(ex.targets), **kw)


@pytest.mark.parametrize("make", MECHANISMS, ids=lambda f: f.__name__[5:])
def test_names_module_op_and_samples(make):
    ex = make()
    r = locate(ex)
    assert r.kind == ex.kind, r.summary()
    assert r.culprit.module == ex.module
    assert r.culprit.short == ex.op and r.culprit.op == f"aten::{ex.op}"
    assert r.culprit.phase == "forward"
    assert r.culprit.samples == ex.bad
    assert r.result_finite is False
    assert r.backward.startswith("skipped")
    json.dumps(r.to_dict())  # JSON-safe as is


def test_exp_overflow_evidence():
    r = locate(E.make_exp_overflow())
    c = r.culprit
    assert c.module_type == "BehaviourAttention"
    assert c.inputs[0].max > 88.7 and c.inputs[0].nonfinite == 0  # exp(x > 88.7) = inf in float32
    assert c.outputs[0].posinf > 0
    assert r.first_nan.module == "encoder.attn" and r.first_nan.short == "div"  # inf / inf
    assert "exp" in r.summary() and "encoder.attn" in r.summary()


def test_masked_fill_with_minus_inf_is_not_blamed():
    r = locate(E.make_masked_row())
    assert r.first_inf is None  # masked_fill(-inf) has a non-finite argument: deliberate
    assert r.culprit.inputs[0].neginf > 0


def test_nan_input_names_the_input_not_an_op():
    r = locate(E.make_nan_input(bad=(3, 40)))
    assert r.kind == "nonfinite-input" and r.culprit.source == "input"
    assert r.culprit.rows == [3, 40]


def test_fp16_overflow_is_finite_in_float32():
    ex = E.make_fp16_overflow()
    r = locate(ex)
    assert r.culprit.fp32_finite is True and r.culprit.inputs[1].dtype == "float16"
    ex.autocast = None  # the same batch in float32 is fine, but fp16_check sees the risk
    r32 = locate(ex, fp16_check=True)
    assert r32.kind is None and r32.result_finite is True
    assert r32.fp16_overflow.module == "net.0" and r32.fp16_overflow.samples == ex.bad


def test_nonfinite_parameter_is_bad_state():
    m = nn.Sequential(nn.Linear(4, 4), nn.ReLU(), nn.Linear(4, 1))
    with torch.no_grad():
        m[2].weight[0, 1] = float("nan")
    r = first_nonfinite(lambda: m(torch.randn(8, 4)).mean(), model=m)
    assert r.kind == "nonfinite-state" and r.culprit.source == "parameter 2.weight"
    assert r.culprit.module == "2"


def test_parameter_holding_inf_is_bad_state_not_the_matmul():
    # float16 Adam dividing by a flushed eps writes +-inf into the weights; the next forward's
    # matmul makes NaN from them (inf - inf): the state broke, not the op (bench/real 320)
    m = nn.Sequential(nn.Linear(4, 4), nn.ReLU(), nn.Linear(4, 1))
    with torch.no_grad():
        m[0].weight[0, 1], m[0].weight[0, 2] = float("inf"), float("-inf")
    r = first_nonfinite(lambda: m(torch.ones(8, 4)).mean(), model=m)
    assert r.kind == "nonfinite-state" and r.culprit.source == "parameter 0.weight"


class _MaskedAttention(nn.Module):
    """A -inf causal mask kept as a buffer, padding masked on top: a fully masked row."""

    def __init__(self):
        super().__init__()
        self.register_buffer("causal", torch.full((4, 4), float("-inf")).triu(1))

    def forward(self, s, pad):
        return (s + self.causal).masked_fill(pad, float("-inf")).softmax(-1)


def test_a_mask_buffer_holding_inf_is_no_bad_state():
    pad = torch.zeros(2, 4, 4, dtype=torch.bool)
    pad[1, 0, :] = True  # row 0 of sample 1 sees no key
    m = _MaskedAttention()
    r = first_nonfinite(lambda: m(torch.randn(2, 4, 4), pad).sum(), model=m)
    assert r.kind == "unstable-op" and r.culprit.op == "aten::_softmax"


def test_an_exp_overflowing_next_to_masked_entries_is_the_op():
    s = torch.randn(4, 8)
    s[0, 0], s[1, 1] = 100.0, 120.0  # exp overflows float32 past 88.7
    mask = torch.zeros(4, 8, dtype=torch.bool)
    mask[:, 5:] = True  # -inf entries turn into zeros: fewer non-finite values out than in
    r = first_nonfinite(lambda: s.masked_fill(mask, float("-inf")).exp().div(3).sum())
    assert r.kind == "unstable-op" and r.culprit.op == "aten::exp"


class _Norm(nn.Module):
    def forward(self, h):
        return torch.sqrt((h * h).sum(-1))  # finite at 0, but its gradient is 0 / 0


class _Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4)
        self.pool = _Norm()

    def forward(self, x):
        return self.pool(torch.relu(self.fc(x)))


def test_backward_op_is_attributed_to_its_forward_module():
    torch.manual_seed(0)
    net = _Net()
    x = torch.randn(8, 4)
    with torch.no_grad():
        net.fc.weight.zero_()
        net.fc.bias.copy_(torch.tensor([1.0, -1.0, 1.0, -1.0]))
    x2 = x.clone()
    net2 = _Net()
    net2.load_state_dict(net.state_dict())
    with torch.no_grad():
        net2.fc.bias.fill_(-1.0)  # every ReLU off: the norm is sqrt(0)
    r = first_nonfinite(lambda: net2(x2).mean(), model=net2, batch_size=8)
    assert r.result_finite is True and r.backward == "ran"
    assert r.kind == "unstable-op" and r.culprit.phase == "backward"
    assert r.culprit.module == "pool" and r.culprit.node == "SqrtBackward0"
    assert r.culprit.samples == list(range(8))
    assert r.backward_ops > 0


def test_clean_step_reports_nothing_and_touches_no_grad():
    torch.manual_seed(0)
    m = nn.Linear(4, 1)
    r = first_nonfinite(lambda: m(torch.randn(8, 4)).pow(2).mean())
    assert r.kind is None and r.culprit is None and not r.found
    assert r.backward == "ran" and r.result_finite is True
    assert m.weight.grad is None
    assert "finite" in r.summary()


def test_inplace_op_reports_its_input_before_the_write():
    def fn():
        x = torch.tensor([1.0, 100.0, 2.0])
        return x.exp_().sum()
    r = first_nonfinite(fn, backward=False)
    assert r.culprit.short == "exp_" and r.culprit.inputs[0].max == 100.0


def test_passes_args_and_leaves_hooks_behind_none():
    from torch.nn.modules import module as mm
    before = (len(mm._global_forward_pre_hooks), len(mm._global_forward_hooks))
    lin = nn.Linear(2, 2)
    r = first_nonfinite(lambda a, scale=1.0: lin(a * scale).sum(), torch.ones(3, 2), scale=2.0)
    assert r.kind is None
    assert (len(mm._global_forward_pre_hooks), len(mm._global_forward_hooks)) == before


class _CausalLM(nn.Module):
    """pytorch/examples word_language_model's mask: log of a 0/1 lower triangle."""

    def __init__(self, underflow: bool = False):
        super().__init__()
        self.proj = nn.Linear(8, 8)
        self.underflow = underflow

    def forward(self, x):
        T = x.shape[1]
        mask = torch.log(torch.tril(torch.ones(T, T)))  # 0 on and below the diagonal, -inf above
        scores = self.proj(x) @ x.transpose(1, 2) + mask
        p = torch.softmax(scores * (1e4 if self.underflow else 1.0), -1)
        return torch.log(p).mean() if self.underflow else (p @ x).pow(2).mean()


def test_log_of_a_zero_one_mask_is_not_blamed():
    torch.manual_seed(0)
    r = first_nonfinite(_CausalLM(), torch.randn(2, 5, 8))
    assert r.kind is None, r.summary()  # a deliberate additive mask; the step is finite


def test_log_of_an_underflowed_probability_is_still_blamed():
    torch.manual_seed(0)
    r = first_nonfinite(_CausalLM(underflow=True), torch.randn(2, 5, 8))
    assert r.kind == "unstable-op" and r.culprit.short == "log", r.summary()


def test_an_op_inf_on_a_spike_whose_replay_stayed_finite_is_no_finding():
    from traindoc.forensics.findings import build_findings

    culprit = {"op": "aten::log", "short": "log", "phase": "forward", "module": None, "module_type": None,
               "inputs": [{"shape": [4, 4], "dtype": "float32", "min": 0.0, "max": 1.0, "nonfinite": 0}],
               "outputs": [{"shape": [4, 4], "dtype": "float32", "min": 0.0, "max": 0.0, "neginf": 6,
                            "nonfinite": 6}]}

    class B:
        path, meta = "b", {"batches": []}

    res = {"step": 3, "location": {"kind": "unstable-op", "culprit": culprit},
           "tests": [{"what": "batch", "fails": True, "loss": 26.5, "grad_norm": 18.2}]}
    assert [f.name for f in build_findings(res, B())] == []
    res["tests"][0]["loss"] = float("nan")  # a NaN step: the op is the finding
    assert [f.name for f in build_findings(res, B())] == ["unstable-op"]


def test_a_float16_backward_overflow_under_a_gradscaler_is_the_scalers_search():
    from traindoc.forensics.findings import build_findings

    culprit = {"op": "aten::mm", "short": "mm", "phase": "backward", "module": "Block.proj", "module_type": "Linear",
               "inputs": [{"shape": [48, 256], "dtype": "float16", "min": -821.5, "max": 999.0, "nonfinite": 0}],
               "outputs": [{"shape": [48, 48], "dtype": "float16", "min": -6.3e4, "max": 6.2e4, "nonfinite": 46}]}

    class B:
        path, meta = "b", {"batches": [], "scaler_scales": [32768.0]}

    res = {"step": 59, "location": {"kind": "fp16-overflow", "culprit": culprit},
           "tests": [{"what": "batch", "fails": True, "loss": 0.4, "grad_norm": float("inf")}]}
    assert [f.name for f in build_findings(res, B())] == []  # the scaler skips that step and halves
    B.meta = {"batches": []}  # no scaler: the overflowed gradient reaches the weights
    assert [f.name for f in build_findings(res, B())] == ["fp16-overflow"]
    B.meta = {"batches": [], "scaler_scales": [0.5]}  # a scale collapsed below 1: no longer a search
    assert [f.name for f in build_findings(res, B())] == ["fp16-overflow"]
    B.meta = {"batches": [], "scaler_scales": [32768.0]}
    culprit["phase"] = "forward"  # a forward overflow makes the loss Inf at any scale
    assert [f.name for f in build_findings(res, B())] == ["fp16-overflow"]


def test_an_overflow_in_the_first_forward_names_the_init_first():
    from traindoc.diagnose import rank
    from traindoc.forensics.findings import build_findings

    def exp_culprit(absmax, neg_inf=0, nan_in=0):
        return {"op": "aten::exp", "short": "exp", "phase": "forward", "module": None, "module_type": None,
                "inputs": [{"shape": [256], "dtype": "float32", "min": -absmax, "max": absmax, "absmax": absmax,
                            "nonfinite": nan_in}],
                "outputs": [{"shape": [256], "dtype": "float32", "min": 0.0, "max": 3e38, "posinf": 116,
                             "nonfinite": 116}]}

    class B:
        path, meta = "b", {"batches": []}

    def names(step, culprit, field=None):
        res = {"step": step, "location": {"kind": "unstable-op", "culprit": culprit},
               "tests": [{"what": "batch", "fails": True, "loss": float("inf"), "grad_norm": float("nan")}]}
        if field:
            res["profiles"] = {"samples": [{"position": 0, "index": None, "extreme": [],
                                            "fields": [{"field": "args.0", "extreme": [], **field}]}]}
        return [f.name for f in rank(build_findings(res, B()))]

    # an FFM whose latent vectors are drawn from U(0, 1): logits of +-108 before any update,
    # on integer feature ids (ids are not a scale)
    ids = {"float": False, "run_p50_absmax": 399.0}
    assert names(0, exp_culprit(108.2), ids) == ["bad-init", "unstable-op"]
    # the batch not profiled: its scale is unknown, the init only a lead after the op
    assert names(0, exp_culprit(108.2)) == ["unstable-op", "bad-init"]
    # later in training the weights have moved: the op (a softmax without the max) is the cause
    assert names(40, exp_culprit(108.2), ids) == ["unstable-op"]
    # inputs that are merely large enough to matter at once are not an init's scale
    assert names(0, exp_culprit(12.0), ids) == ["unstable-op"]
    # a Cox model fed raw covariates (a sample year ~2000): the inputs' scale, not the init
    assert names(0, exp_culprit(640.0), {"float": True, "run_p50_absmax": 1999.0}) == ["data-unnormalized",
                                                                                         "unstable-op"]
    # the FFM's feature ids are integers in the hundreds: ids are not a scale
    assert names(0, exp_culprit(108.2), {"float": True, "run_p50_absmax": 3.1})[0] == "bad-init"


def test_a_constant_buffer_filled_from_data_is_data_again():
    def fn(x):
        buf = torch.ones(x.shape[0], 6)
        buf[:, :4] = x  # written through a view: the buffer now holds the batch's values
        return torch.log(buf).sum()

    x = torch.rand(3, 4)
    x[1, 2] = 0.0
    r = first_nonfinite(fn, x)
    assert r.kind == "unstable-op" and r.culprit.short == "log", r.summary()


def test_an_input_column_holding_inf_is_the_data_not_the_next_matmul():
    # a constant column z-scored by its zero std is +inf in every row; the first layer passes
    # the inf on, the second makes NaN (inf - inf): the batch broke it (bench/real 384)
    m = nn.Sequential(nn.Linear(3, 8), nn.ReLU(), nn.Linear(8, 2))
    x = torch.randn(16, 3)
    x[:, 2] = float("inf")
    r = first_nonfinite(lambda: m(x).sum(), model=m)
    assert r.kind == "nonfinite-input" and r.culprit.source == "input"


def test_an_additive_minus_inf_mask_input_stays_with_the_op():
    s = torch.randn(2, 4)
    mask = torch.zeros(2, 4)
    mask[1, :] = float("-inf")  # every key of row 1 masked: the softmax makes NaN
    r = first_nonfinite(lambda: (s + mask).softmax(-1).sum())
    assert r.kind == "unstable-op"
