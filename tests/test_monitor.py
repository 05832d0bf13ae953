"""The monitor records what the issue lists, on the loop shapes users write."""

import math
import warnings

import numpy as np
import pytest
import torch
from torch import nn

import traindoc
from traindoc.monitor import TraindocWarning


def _data(n=64, d=6, seed=0):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, d, generator=g)
    y = (x.sum(1) > 0).long()
    return x, y


def test_plain_loop_records_core_series(tmp_path):
    torch.manual_seed(0)
    x, y = _data()
    loader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(x, y), batch_size=8, shuffle=True)
    model = nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Linear(16, 2))
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    losses = []
    with traindoc.watch(out=tmp_path / "r", sample_every=4):
        for _ in range(2):
            for xb, yb in loader:
                opt.zero_grad()
                loss = nn.functional.cross_entropy(model(xb), yb)
                loss.backward()
                opt.step()
                losses.append(loss.item())
    run = traindoc.open_run(tmp_path / "r")
    s = run.series("loss")
    assert list(s.steps) == list(range(16))
    np.testing.assert_allclose(s.values, losses, rtol=1e-6)
    # the model's input scale on every step, its output's on sampled steps (in/absmax:
    # data-unnormalized reads the inputs' own scale there, data-outlier lays spikes against it)
    ins = run.series("in/absmax")
    assert list(ins.steps) == list(range(16))
    assert np.all(ins.values <= float(x.abs().max())) and np.all(ins.values > 0.5)
    outs = run.series("out/absmax")
    assert 2 <= len(outs) < len(ins) and set(outs.steps) <= set(ins.steps)
    # per-parameter gradient norms agree with torch
    assert {"grad_norm/0.weight", "grad_norm/0.bias", "grad_norm/2.weight", "grad_norm/2.bias"} <= set(run.names())
    assert run.series("grad_nonfinite").values.max() == 0
    assert np.allclose(run.series("lr/0/0").values, 0.1)
    assert (run.series("time/data").values >= 0).all()
    # sampled steps: 0, 4, 8, 12
    assert list(run.series("sampled").steps) == [0, 4, 8, 12]
    assert list(run.series("update_ratio").steps) == [0, 4, 8, 12]
    assert "act/1/dead" in run.names() and "act/0/std" in run.names()
    # every step's batch indices, each sample exactly once per epoch
    idx = np.concatenate([run.batch_indices(i) for i in range(8)])
    assert sorted(idx.tolist()) == list(range(64))
    labels = [e for e in run.events() if e["kind"] == "labels"]
    assert labels and sum(labels[0]["data"]["counts"].values()) > 0
    assert run.meta["model/model"]["parameters"] == sum(p.numel() for p in model.parameters())
    assert run.meta["loader/0"]["length"] == 64
    assert run.meta["status"] == "finished"


def test_grad_norms_match_torch(tmp_path):
    torch.manual_seed(0)
    model = nn.Linear(5, 3)
    opt = torch.optim.SGD(model.parameters(), lr=0.0)
    x = torch.randn(4, 5)
    with traindoc.watch(out=tmp_path / "r"):
        opt.zero_grad()
        model(x).pow(2).sum().backward()
        expect = {n: p.grad.norm().item() for n, p in model.named_parameters()}
        total = math.sqrt(sum(v * v for v in expect.values()))
        opt.step()
    run = traindoc.open_run(tmp_path / "r")
    for n, v in expect.items():
        assert run.series(f"grad_norm/{n}").values[0] == pytest.approx(v, rel=1e-6)
    assert run.series("grad_norm").values[0] == pytest.approx(total, rel=1e-6)


def test_huge_finite_gradients_are_not_reported_non_finite(tmp_path):
    """max |g| 4e22: float32's sum of squares overflows; the norm must not."""
    w = nn.Parameter(torch.ones(10))
    opt = torch.optim.SGD([w], lr=0.0)
    with traindoc.watch(out=tmp_path / "r"):
        w.grad = torch.full((10,), 4e22)
        opt.step()
        w.grad = torch.tensor([float("inf")] + [1.0] * 9)
        opt.step()
    run = traindoc.open_run(tmp_path / "r")
    assert run.series("grad_norm").values[0] == pytest.approx(4e22 * math.sqrt(10), rel=1e-6)
    assert run.series("grad_nonfinite").values.tolist() == [0.0, 1.0]


def test_gradient_accumulation_sums_micro_losses(tmp_path):
    torch.manual_seed(0)
    model = nn.Linear(3, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    accum = 4
    expected = []
    with traindoc.watch(out=tmp_path / "r"):
        for step in range(5):
            tot = 0.0
            for micro in range(accum):
                loss = model(torch.randn(2, 3)).pow(2).mean() / accum
                loss.backward()
                tot += loss.item()
            opt.step()
            opt.zero_grad()
            expected.append(tot)
    s = traindoc.open_run(tmp_path / "r").series("loss")
    assert len(s) == 5
    np.testing.assert_allclose(s.values, expected, rtol=1e-5)


def test_several_optimizers_and_param_groups(tmp_path):
    torch.manual_seed(0)
    enc, head = nn.Linear(4, 8), nn.Linear(8, 1)
    model = nn.Sequential(enc, nn.Tanh(), head)
    opt_a = torch.optim.AdamW([{"params": enc.weight, "lr": 1e-3}, {"params": enc.bias, "lr": 1e-2}])
    opt_b = torch.optim.SGD(head.parameters(), lr=0.05, momentum=0.9)
    with traindoc.watch(out=tmp_path / "r"):
        for _ in range(6):
            opt_a.zero_grad(); opt_b.zero_grad()
            loss = model(torch.randn(8, 4)).pow(2).mean()
            loss.backward()
            opt_a.step(); opt_b.step()
    run = traindoc.open_run(tmp_path / "r")
    assert len(run.series("loss")) == 6
    assert np.allclose(run.series("lr/0/0").values, 1e-3) and np.allclose(run.series("lr/0/1").values, 1e-2)
    assert np.allclose(run.series("lr/1/0").values, 0.05)
    assert len(run.series("grad_norm/2.weight")) == 6  # the second optimizer's parameter
    assert run.series("loss/opt1").values == pytest.approx(run.series("loss").values)
    assert run.meta["optimizer/1"]["class"] == "SGD" and len(run.meta["optimizer/0"]["groups"]) == 2
    # each group's parameter shapes, in order (what names raw tensors' layers)
    assert [g["shapes"] for g in run.meta["optimizer/0"]["groups"]] == [[[8, 4]], [[8]]]
    assert run.meta["optimizer/1"]["groups"][0]["shapes"] == [[1, 8], [1]]
    summary = next(v for k, v in run.meta.items() if k.startswith("model/"))
    assert summary["frozen"] == [] and summary["trainable_weights"] == 2


def test_scheduler_changes_are_recorded(tmp_path):
    model = nn.Linear(2, 1)
    opt = torch.optim.SGD(model.parameters(), lr=1.0)
    sched = torch.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.1)
    with traindoc.watch(out=tmp_path / "r"):
        for _ in range(6):
            opt.zero_grad(); model(torch.randn(3, 2)).sum().backward(); opt.step(); sched.step()
    run = traindoc.open_run(tmp_path / "r")
    np.testing.assert_allclose(run.series("lr/0/0").values, [1, 1, 0.1, 0.1, 0.01, 0.01], rtol=1e-6)
    assert any(e["kind"] == "scheduler" and e["message"] == "StepLR" for e in run.events())


def test_grad_scaler_with_bf16_autocast_and_skipped_steps(tmp_path):
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 1))
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    scaler = torch.amp.GradScaler("cpu", init_scale=2.0**10)
    losses = []
    with traindoc.watch(out=tmp_path / "r"):
        for step in range(8):
            opt.zero_grad()
            x = torch.randn(8, 4)
            if step == 3:
                x[0, 0] = float("inf")  # this step's gradients are non-finite: the scaler skips it
            with torch.autocast("cpu", dtype=torch.bfloat16):
                loss = model(x).float().pow(2).mean()
            scaler.scale(loss).backward()
            scaler.step(opt)
            scaler.update()
            losses.append(loss.item())
    run = traindoc.open_run(tmp_path / "r")
    s = run.series("loss")
    assert list(s.steps) == list(range(8))  # the skipped step is a step too
    finite = np.isfinite(losses)
    np.testing.assert_allclose(s.values[finite], np.array(losses)[finite], rtol=1e-6)  # unscaled
    skipped = run.series("scaler/skipped")
    assert list(skipped.steps) == [3]
    scale = run.series("scaler/scale")
    assert scale.values[0] == 2.0**10 and scale.values[4] == 2.0**9  # halved after the skip


def test_eval_loss_is_tagged(tmp_path):
    model = nn.Linear(3, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    xv, yv = torch.randn(16, 3), torch.randn(16, 1)
    with traindoc.watch(out=tmp_path / "r"):
        for step in range(10):
            opt.zero_grad(); nn.functional.mse_loss(model(torch.randn(4, 3)), torch.randn(4, 1)).backward(); opt.step()
            if step % 5 == 4:
                model.eval()
                with torch.no_grad():
                    ev = nn.MSELoss()(model(xv), yv).item()
                model.train()
    run = traindoc.open_run(tmp_path / "r")
    e = run.series("loss/eval")
    assert list(e.steps) == [4, 9]
    assert e.values[-1] == pytest.approx(ev, rel=1e-6)


def test_failure_inside_traindoc_never_reaches_the_loop(tmp_path, monkeypatch):
    from traindoc.monitor import backward, optim

    def broken(grads):
        raise RuntimeError("simulated bug in traindoc")

    for mod in (backward, optim):  # the modules that measure gradient norms
        monkeypatch.setattr(mod, "grad_norms", broken)
    model = nn.Linear(3, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with traindoc.watch(out=tmp_path / "r"):
            for _ in range(5):
                opt.zero_grad(); model(torch.randn(4, 3)).sum().backward(); opt.step()
    assert sum(issubclass(w.category, TraindocWarning) for w in caught) == 1  # once, not per step
    run = traindoc.open_run(tmp_path / "r")
    errs = [e for e in run.events() if e["kind"] == "monitor-error"]
    assert errs and "simulated bug" in errs[0]["message"]
    d = traindoc.diagnose(run)
    assert any(f.name == "monitor-error" for f in d.internal)


def test_hooks_removed_after_close(tmp_path):
    orig_backward = torch.Tensor.backward
    from torch.nn import functional as F

    orig_ce = F.cross_entropy
    with traindoc.watch(out=tmp_path / "r"):
        assert torch.Tensor.backward is not orig_backward
    assert torch.Tensor.backward is orig_backward and F.cross_entropy is orig_ce


def test_compiled_model(tmp_path):
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1))
    cmodel = torch.compile(model, backend="aot_eager")
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    with traindoc.watch(out=tmp_path / "r"):
        for _ in range(4):
            opt.zero_grad(); cmodel(torch.randn(8, 4)).pow(2).mean().backward(); opt.step()
    run = traindoc.open_run(tmp_path / "r")
    assert len(run.series("loss")) == 4
    assert "grad_norm/0.weight" in run.names()  # names resolved through the compiled wrapper
    assert run.meta["compiled"] is True
    assert not any(n.startswith("act/") for n in run.names())  # said, not recorded


def test_loss_functions_binary_labels_and_autocast_are_described(tmp_path):
    torch.manual_seed(0)
    x = torch.randn(64, 6)
    y = (torch.arange(64) % 8 == 0).float()  # 8 positives, 56 negatives
    model = nn.Sequential(nn.Linear(6, 8), nn.ReLU(), nn.Linear(8, 1))
    opt = torch.optim.Adam(model.parameters(), 1e-3)
    with traindoc.watch(out=tmp_path / "r", sample_every=100):
        for i in range(4):
            xb, yb = x[i * 16:(i + 1) * 16], y[i * 16:(i + 1) * 16]
            with torch.autocast("cpu", dtype=torch.bfloat16):
                out = model(xb).squeeze(1)
            loss = nn.functional.binary_cross_entropy_with_logits(out.float(), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
    run = traindoc.open_run(tmp_path / "r")
    fn = run.meta["loss_function/binary_cross_entropy_with_logits"]
    assert fn["target"] == {"shape": [16], "dtype": "float32"} and fn["input"]["shape"] == [16]
    assert run.series("loss_fn/binary_cross_entropy_with_logits/target_integral").values.tolist() == [1.0]
    assert run.series("loss_fn/binary_cross_entropy_with_logits/target_max").values.tolist() == [1.0]
    counts = {}
    for e in run.events():
        if e["kind"] == "labels":
            for k, c in e["data"]["counts"].items():
                counts[k] = counts.get(k, 0) + c
    assert counts == {"0": 56.0, "1": 8.0}
    assert [e["data"] for e in run.events() if e["kind"] == "autocast"] == [{"cpu": "bfloat16"}]


def test_loss_that_reaches_no_optimizer_tensor_is_counted_not_an_error(tmp_path):
    # a loss rebuilt from .item() values: backward() runs, no parameter gets a gradient;
    # every step is still a step, and the sampled steps say 0 tensors had a gradient
    torch.manual_seed(0)
    model = nn.Linear(4, 2)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    with warnings.catch_warnings():
        warnings.simplefilter("error", TraindocWarning)
        with traindoc.watch(out=tmp_path / "r", sample_every=4):
            for _ in range(12):
                out = model(torch.randn(8, 4))
                loss = torch.zeros(1, requires_grad=True) + out.mean().item()
                opt.zero_grad()
                loss.backward()
                opt.step()
    run = traindoc.open_run(tmp_path / "r")
    assert len(run.series("loss").steps) == 12
    gt = run.series("grad_tensors")
    assert list(gt.steps) == [0, 4, 8] and gt.values.max() == 0
    assert not [e for e in run.events() if e["kind"] == "monitor-error"]


@pytest.mark.parametrize("clear", ["none", "set_to_none", "zeros", "model", "gan", "assigned"])
def test_gradient_left_in_grad_between_steps_is_measured(tmp_path, clear):
    """What .grad holds when the first backward after a step (or a zero_grad) begins: the
    previous step's gradient when nothing clears it, 0 otherwise; a GAN's generator backward
    that leaves stale gradients in the discriminator, cleared before the discriminator's own
    backward, is not stale; nor are master weights whose .grad the script assigns by hand
    each step from a working copy it clears (a hand-written mixed-precision recipe)."""
    torch.manual_seed(0)
    d = nn.Linear(4, 1)
    g = nn.Linear(2, 4)
    opt_d = torch.optim.SGD(d.parameters(), lr=0.01)
    opt_g = torch.optim.SGD(g.parameters(), lr=0.01)
    work = nn.Linear(4, 1)
    with traindoc.watch(out=tmp_path / "r", sample_every=2):
        for _ in range(8):
            if clear == "assigned":  # the optimizer's tensors are never in the graph
                work.load_state_dict(d.state_dict())
                work.zero_grad()
                work(torch.randn(8, 4)).pow(2).mean().backward()
                for w, p in zip(work.parameters(), d.parameters()):
                    p.grad = w.grad.clone()
                opt_d.step()
                continue
            if clear == "set_to_none":
                opt_d.zero_grad()
            elif clear == "zeros":
                opt_d.zero_grad(set_to_none=False)
            elif clear in ("model", "gan"):
                d.zero_grad()
            d(torch.randn(8, 4)).pow(2).mean().backward()
            opt_d.step()
            if clear == "gan":
                g.zero_grad()
                d(g(torch.randn(8, 2))).mean().backward()  # reaches d's params too
                opt_g.step()
    run = traindoc.open_run(tmp_path / "r")
    c, ref = run.series("grad_carried"), run.series("grad_carried_ref")
    assert len(c.steps) >= 3 and (ref.values > 0).all()
    if clear == "none":
        assert (c.values[1:] > 0.1 * ref.values[1:]).all()
    else:
        assert (c.values == 0).all()


def test_autograd_grad_updates_without_an_optimizer_are_steps(tmp_path):
    """A JAX-style loop: raw tensors, torch.autograd.grad(loss, params), p -= lr * g. Each call
    is one step of the backward clock, with the returned gradients' norms."""
    torch.manual_seed(0)
    w = torch.randn(6, 2, requires_grad=True)
    b = torch.zeros(2, requires_grad=True)
    x, y = _data()
    with traindoc.watch(out=tmp_path / "r", sample_every=4):
        for i in range(10):
            loss = nn.functional.cross_entropy(x @ w + b, y)
            gw, gb = torch.autograd.grad(loss, [w, b])
            with torch.no_grad():
                w -= 0.1 * gw
                b -= 0.1 * gb
    run = traindoc.open_run(tmp_path / "r")
    assert run.meta["step_clock"]["kind"] == "backward"
    assert len(run.series("loss").steps) == 10
    gn = run.series("grad_norm")
    assert len(gn.steps) >= 9 and np.isfinite(gn.values).all() and (gn.values > 0).all()


def test_raw_tensors_updated_by_hand_get_per_tensor_gradient_norms(tmp_path):
    """d2l's from-scratch loop: no module, no optimizer, backward() then ``p -= lr * p.grad``.
    The loss graph's leaves are the weights: grad_norm/graph.param0 is the input layer's,
    with its shape in the meta (what vanishing-gradient compares layer by layer)."""
    torch.manual_seed(0)
    w1, b1 = torch.randn(6, 16, requires_grad=True), torch.zeros(16, requires_grad=True)
    w2, b2 = torch.randn(16, 2, requires_grad=True), torch.zeros(2, requires_grad=True)
    x, y = _data()
    with traindoc.watch(out=tmp_path / "r", sample_every=4):
        for i in range(12):
            loss = nn.functional.cross_entropy(torch.relu(x @ w1 + b1) @ w2 + b2, y)
            loss.backward()
            with torch.no_grad():
                for p in (w1, b1, w2, b2):
                    p -= 0.05 * p.grad
                    p.grad = None
    run = traindoc.open_run(tmp_path / "r")
    assert run.meta["step_clock"]["kind"] == "backward"
    shapes = run.meta["graph_params"]["shapes"]
    assert sorted(map(tuple, shapes)) == [(2,), (6, 16), (16,), (16, 2)] and tuple(shapes[0]) in ((6, 16), (16,))
    g = [run.series(f"grad_norm/graph.param{i}") for i in range(4)]
    assert all(len(s.steps) >= 10 and (s.values > 0).all() for s in g)


def test_gradient_penalty_with_create_graph_is_part_of_the_step(tmp_path):
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(6, 8), nn.Tanh(), nn.Linear(8, 1))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    x, _ = _data()
    with traindoc.watch(out=tmp_path / "r", sample_every=4):
        for _ in range(6):
            xi = x.clone().requires_grad_(True)
            out = model(xi)
            (g,) = torch.autograd.grad(out.sum(), xi, create_graph=True)
            loss = out.mean() + ((g.norm(dim=1) - 1) ** 2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
    run = traindoc.open_run(tmp_path / "r")
    assert "step_clock" not in run.meta
    assert list(run.series("loss").steps) == list(range(6))


@pytest.mark.parametrize("divide", [True, False])
def test_accumulation_records_what_was_backpropagated_against_the_loss(tmp_path, divide):
    torch.manual_seed(0)
    model = nn.Linear(6, 2)
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    x, y = _data()
    with traindoc.watch(out=tmp_path / "r", sample_every=2):
        for s in range(6):
            opt.zero_grad()
            for k in range(4):
                loss = nn.functional.cross_entropy(model(x[k * 8:(k + 1) * 8]), y[k * 8:(k + 1) * 8])
                (loss / 4 if divide else loss).backward()
            opt.step()
    run = traindoc.open_run(tmp_path / "r")
    assert set(run.series("accum/backwards").values) == {4.0}
    assert run.series("accum/scale").values == pytest.approx(0.25 if divide else 1.0, rel=1e-5)


def test_optimizer_subclass_calling_super_step_is_one_step(tmp_path):
    """A custom optimizer whose step() calls super().step(): both classes' steps carry
    torch's hooks, which then nest; that is still one step (it was counted twice)."""
    torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=0.1)  # SGD.step hooked first

    class Clipped(torch.optim.SGD):
        def step(self, closure=None):
            torch.nn.utils.clip_grad_norm_([p for g in self.param_groups for p in g["params"]], 1.0)
            return super().step(closure)

    torch.manual_seed(0)
    model = nn.Linear(6, 2)
    opt = Clipped(model.parameters(), lr=0.1)
    x, y = _data()
    with traindoc.watch(out=tmp_path / "r", sample_every=2):
        for _ in range(5):
            opt.zero_grad()
            nn.functional.cross_entropy(model(x), y).backward()
            opt.step()
    run = traindoc.open_run(tmp_path / "r")
    assert run.meta["steps"] == 5 and list(run.series("loss").steps) == [0, 1, 2, 3, 4]


def test_each_evaluation_split_keeps_one_series_across_epochs(tmp_path):
    # a new iterator every epoch (and a loader rebuilt inside the loop) must not start a new
    # series: the ids of freed iterators are reused, which once split and swapped them
    from torch.utils.data import DataLoader, TensorDataset

    torch.manual_seed(0)
    X, Y = torch.randn(256, 4), torch.randn(256, 1)
    train = DataLoader(TensorDataset(X[:192], Y[:192]), batch_size=32, shuffle=True)
    val_ds = TensorDataset(X[192:], Y[192:])
    test = DataLoader(TensorDataset(X[:64] * 3, Y[:64]), batch_size=32)
    m = nn.Linear(4, 1)
    opt = torch.optim.SGD(m.parameters(), lr=0.05)
    with traindoc.watch(out=tmp_path / "r", replay=False):
        for _ in range(5):
            for x, y in train:
                loss = nn.functional.mse_loss(m(x), y)
                opt.zero_grad()
                loss.backward()
                opt.step()
            with torch.no_grad():
                for x, y in DataLoader(val_ds, batch_size=32):  # rebuilt every epoch
                    nn.functional.mse_loss(m(x), y)
                for x, y in test:
                    nn.functional.mse_loss(m(x), y)
    run = traindoc.open_run(tmp_path / "r")
    evals = sorted(n for n in run.names() if n.startswith("loss/eval"))
    assert evals == ["loss/eval", "loss/eval1"], evals
    assert [len(run.series(n)) for n in evals] == [5, 5]
    assert run.meta["eval_loader/loss/eval"]["length"] == 64
    assert sum(1 for k in run.meta if k.startswith("loader/")) == 3


def test_a_crash_is_summed_up_by_its_type_and_first_line():
    import traceback

    from traindoc.monitor.context import exception_line

    def tb_of(exc):
        try:
            raise exc
        except BaseException as e:  # noqa: BLE001
            return "".join(traceback.format_exception(e))

    assert exception_line(tb_of(ZeroDivisionError("division by zero"))) == "ZeroDivisionError: division by zero"
    msg = "Weights only load failed.\n\t(1) In PyTorch 2.6 ...\n    indented\nCheck the documentation"
    assert exception_line(tb_of(RuntimeError(msg))) == "RuntimeError: Weights only load failed."
    assert exception_line("just a message") == "just a message"
    # torch 2.6+'s own wording, colour codes and all (pytorch/examples time_sequence_prediction)
    bold = "Weights only load failed. This file can still be loaded, \x1b[1mdo those steps only if you trust\x1b[0m."
    assert "\x1b" not in exception_line(tb_of(RuntimeError(bold)))


def test_a_skipped_nan_at_the_end_with_stop_on_still_closes_the_run(tmp_path):
    from traindoc.monitor.monitor import Monitor

    torch.manual_seed(0)
    m = nn.Linear(4, 1)
    opt = torch.optim.SGD(m.parameters(), lr=0.05)
    x, y = torch.randn(16, 4), torch.randn(16, 1)
    with Monitor(out=tmp_path / "r", stop_on=["nonfinite"], replay=False):
        for i in range(6):
            loss = nn.functional.mse_loss(m(x if i < 5 else x * float("nan")), y)
            if not torch.isfinite(loss):
                break  # the script's own guard, as the last thing the run does
            opt.zero_grad()
            loss.backward()
            opt.step()
    run = traindoc.open_run(tmp_path / "r")
    assert run.meta["status"] == "finished" and run.meta["steps"] == 5
    assert (tmp_path / "r" / "bundles").is_dir()


@pytest.mark.parametrize("loop", ["phases", "gan", "critic_first", "generator_first"])
def test_the_step_clock_follows_a_second_phase_not_an_alternating_optimizer(tmp_path, loop):
    """Pre-train with one optimizer, then fine-tune with another: the second phase's steps are
    the run's steps too (the first optimizer stops stepping). Optimizers that take turns keep
    the first clock: a GAN (one step each per iteration), a WGAN critic stepping 3 times per
    generator step, critic first; generator first, the critic takes the clock at once."""
    torch.manual_seed(0)
    a, b = nn.Linear(4, 1), nn.Linear(4, 1)
    opt_a, opt_b = torch.optim.SGD(a.parameters(), lr=0.01), torch.optim.SGD(b.parameters(), lr=0.01)

    def step(m, opt):
        opt.zero_grad()
        m(torch.randn(8, 4)).pow(2).mean().backward()
        opt.step()

    with traindoc.watch(out=tmp_path / "r"):
        if loop == "phases":
            for _ in range(10):
                step(a, opt_a)
            for _ in range(15):
                step(b, opt_b)
        for _ in range(6 if loop != "phases" else 0):
            if loop == "generator_first":
                step(b, opt_b)
            for _ in range(1 if loop == "gan" else 3):
                step(a, opt_a)
            if loop != "generator_first":
                step(b, opt_b)
    run = traindoc.open_run(tmp_path / "r")
    clock = [e for e in run.events() if e["kind"] == "step-clock"]
    if loop == "phases":
        assert run.meta["steps"] == 10 + 14 and len(clock) == 1  # b's first step waits for its second
        assert "optimizer 1 (SGD) now ends the steps: optimizer 0 stopped stepping" in clock[0]["message"]
    elif loop == "generator_first":
        assert len(clock) == 1 and run.meta["steps"] == 1 + 6 * 3 - 1  # the critic's steps, from its second
    else:
        assert not clock and run.meta["steps"] == 6 * (1 if loop == "gan" else 3)


def test_init_gains_are_the_weights_fan_in_scale_at_the_first_step(tmp_path):
    from traindoc.monitor.context import init_gains

    class Raw(nn.Module):  # x @ W with W [in, out]: the smaller side is taken as the fan-in
        def __init__(self):
            super().__init__()
            self.w = nn.Parameter(torch.randn(64, 256))

        def forward(self, x):
            return x @ self.w

    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(6, 64), Raw(), nn.LayerNorm(256), nn.Linear(256, 2))
    nn.init.normal_(model[3].weight)  # N(0, 1) on 256 inputs: gain 16
    extra = nn.ModuleList([nn.Embedding(10, 4), nn.LSTM(4, 4)])
    gains = {p: (c, g) for p, c, g in init_gains(nn.ModuleDict({"m": model, "x": extra}))}
    assert set(gains) == {"m.0.weight", "m.1.w", "m.3.weight"}  # no bias, norm, embedding or RNN weight
    assert gains["m.0.weight"][1] == pytest.approx(1 / math.sqrt(3), rel=0.1)  # PyTorch's default
    assert gains["m.1.w"][1] == pytest.approx(8.0, rel=0.1) and gains["m.3.weight"][1] == pytest.approx(16.0, rel=0.1)
    x, y = _data()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    with traindoc.watch(out=tmp_path / "r"):
        for _ in range(3):
            opt.zero_grad()
            nn.functional.cross_entropy(model(x), y).backward()
            opt.step()
    rows = traindoc.open_run(tmp_path / "r").meta["model/model"]["init_gain"]
    assert [r[0] for r in rows] == ["0.weight", "1.w", "3.weight"] and rows[2][2] == pytest.approx(16.0, rel=0.1)
    assert traindoc.open_run(tmp_path / "r").meta["model/model"]["constant_weights"] == []
    nn.init.constant_(model[0].weight, 0.05)  # one value in every entry: its units are copies
    nn.init.zeros_(model[3].weight)
    with traindoc.watch(out=tmp_path / "c"):
        opt.zero_grad()
        nn.functional.cross_entropy(model(x), y).backward()
        opt.step()
    assert traindoc.open_run(tmp_path / "c").meta["model/model"]["constant_weights"] == ["0.weight", "3.weight"]


def test_a_layer_applied_per_time_step_is_counted_once(tmp_path):
    """A hand-written recurrence (one Linear applied at each of 12 time steps) is named in
    the ``repeated-modules`` event with its calls per step; layers called once are not."""

    class Cell(nn.Module):
        def __init__(self):
            super().__init__()
            self.inp, self.rec, self.out = nn.Linear(3, 8), nn.Linear(8, 8), nn.Linear(8, 1)

        def forward(self, x):
            h = torch.zeros(x.shape[0], 8)
            gx = self.inp(x)
            for t in range(x.shape[1]):
                h = torch.tanh(gx[:, t] + self.rec(h))
            return self.out(h)

    model = Cell()
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    with traindoc.watch(out=tmp_path / "r"):
        for _ in range(3):
            opt.zero_grad(); model(torch.randn(4, 12, 3)).pow(2).mean().backward(); opt.step()
    ev = [e for e in traindoc.open_run(tmp_path / "r").events() if e["kind"] == "repeated-modules"]
    assert [e["data"] for e in ev] == [{"rec": 12}]


def test_gradient_accumulation_and_a_reused_activation_are_no_repeats(tmp_path):
    """Eight micro-batches a step, each one forward and one backward, through a model that
    reuses one ReLU module after every layer: nothing is called 4+ times per backward."""
    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.layers = nn.ModuleList(nn.Linear(8, 8) for _ in range(5))
            self.act = nn.ReLU()

        def forward(self, x):
            for layer in self.layers:
                x = self.act(layer(x))
            return x

    model = Net()
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    with traindoc.watch(out=tmp_path / "r"):
        for _ in range(3):
            opt.zero_grad()
            for _ in range(8):
                (model(torch.randn(4, 8)).pow(2).mean() / 8).backward()
            opt.step()
    assert not [e for e in traindoc.open_run(tmp_path / "r").events() if e["kind"] == "repeated-modules"]
