"""The monitor's hooks stay out of what the user does with the model: saving the whole
module (``torch.save(model)``, pytorch/examples' word_language_model) and scripting it
(``torch.jit.script``) work under ``traindoc run`` exactly as without it."""

import io

import torch
from torch import nn

import traindoc


def _train(tmp_path, after_first_step):
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1))
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    x, y = torch.randn(64, 4), torch.randn(64, 1)
    with traindoc.watch(out=tmp_path / "r", replay=False) as mon:
        for step in range(6):
            loss = nn.functional.mse_loss(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            if step == 0:
                after_first_step(model)
        steps = mon.step
    return model, steps


def test_torch_save_of_the_whole_model_works_while_monitored(tmp_path):
    saved = []

    def save(model):
        buf = io.BytesIO()
        torch.save(model, buf)
        saved.append(buf.getvalue())

    model, steps = _train(tmp_path, save)
    assert steps == 6  # the monitor kept recording after the save
    back = torch.load(io.BytesIO(saved[0]), weights_only=False)
    assert not back._forward_pre_hooks and not back._forward_hooks  # nothing of traindoc's in the file


def test_torch_jit_script_works_while_monitored(tmp_path):
    scripted = []
    _, steps = _train(tmp_path, lambda m: scripted.append(torch.jit.script(m)))
    assert steps == 6
    x = torch.randn(2, 4)
    assert scripted[0](x).shape == (2, 1)
