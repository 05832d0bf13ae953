"""Replay re-runs the user's script: it must not change what the user keeps (checkpoints,
weights via an optimizer step)."""

import re

import pytest
import torch
from torch import nn

from traindoc.forensics.patches import _no_side_effects
from traindoc.forensics.plan import _Stray
from traindoc.forensics.replay import Driver
from traindoc.forensics.replay import Test as ReplayTest


def test_replay_leaves_the_scripts_checkpoint_as_the_real_run_wrote_it(monitored, tmp_path):
    ckpt = tmp_path / "last.pt"
    r, run = monitored("ckpt_adamw", str(ckpt))
    assert r.returncode == 1 and "reproduced: yes" in r.stderr, r.stderr[-3000:]
    real = int(re.search(r"saved step (\d+)", r.stdout + r.stderr).group(1))
    assert real > 1
    state = torch.load(ckpt)
    assert state["step"] == real  # the replay's script runs (step 1, 2, ...) wrote nothing
    assert all(torch.isfinite(t).all() for t in state["model"].values())


def test_optimizer_and_scaler_steps_are_no_ops_and_save_writes_nothing(tmp_path):
    drv = Driver.__new__(Driver)
    drv.test = ReplayTest("batch")
    undo = _no_side_effects(drv)
    try:
        p = nn.Parameter(torch.ones(4))
        opt = torch.optim.AdamW([p], lr=0.1, weight_decay=0.5)
        sched = torch.optim.lr_scheduler.StepLR(opt, 1)
        scaler = torch.amp.GradScaler("cpu")
        scaler.scale((p * 2).sum()).backward()
        scaler.step(opt)
        scaler.update()
        p.grad = torch.full((4,), 3.0)
        opt.step()
        sched.step()
        assert torch.equal(p.detach(), torch.ones(4))
        torch.save({"x": 1}, tmp_path / "c.pt")
        torch.serialization.save({"x": 1}, tmp_path / "d.pt")
        assert list(tmp_path.iterdir()) == []
        drv.test = None  # a step on data the replay did not serve: stop the script
        with pytest.raises(_Stray):
            opt.step()
    finally:
        for u in reversed(undo):
            u()
    opt2 = torch.optim.SGD([p], lr=1.0)  # undone: real steps again
    p.grad = torch.ones(4)
    opt2.step()
    assert torch.equal(p.detach(), torch.zeros(4))
