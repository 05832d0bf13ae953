"""The monitor's hooks stay out of what the user does with the model: saving the whole
module (``torch.save(model)``, pytorch/examples' word_language_model), scripting it
(``torch.jit.script``), pickling or deep-copying it work under ``traindoc run`` as without
it, and the monitor keeps seeing the model's inputs afterwards."""

import copy
import io
import pickle

import torch
from torch import nn

import traindoc


def _train(tmp_path, after_first_step):
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1))
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    x, y = torch.randn(64, 4), torch.randn(64, 1)
    fwds = []
    with traindoc.watch(out=tmp_path / "r", replay=False) as mon:
        for step in range(6):
            loss = nn.functional.mse_loss(model(x), y)
            fwds.append(mon.rec.train_fwds)  # the root hook counts the model's forwards
            opt.zero_grad()
            loss.backward()
            opt.step()
            if step == 0:
                after_first_step(model)
        steps = mon.step
    assert steps == 6 and fwds == [1] * 6  # the hook kept firing after the save/script
    return model


def test_torch_save_of_the_whole_model_works_while_monitored(tmp_path):
    saved = []

    def save(model):
        buf = io.BytesIO()
        torch.save(model, buf)
        saved.append(buf.getvalue())

    _train(tmp_path, save)
    back = torch.load(io.BytesIO(saved[0]), weights_only=False)
    assert not back._forward_pre_hooks and not back._forward_hooks  # nothing of traindoc's in the file


def test_torch_jit_script_works_while_monitored(tmp_path):
    scripted = []
    _train(tmp_path, lambda m: scripted.append(torch.jit.script(m)))
    assert scripted[0](torch.randn(2, 4)).shape == (2, 1)


def test_pickle_and_deepcopy_get_an_inert_hook(tmp_path):
    copies = []
    _train(tmp_path, lambda m: copies.append((pickle.loads(pickle.dumps(m)), copy.deepcopy(m))))
    for c in copies[0]:
        (hook,) = c._forward_pre_hooks.values()
        assert hook(c, (torch.randn(1, 4),), {}) is None  # inert: no monitor behind it
        buf = io.BytesIO()
        torch.save(c, buf)  # after the run: no wrapper any more, and it still pickles


def test_the_wrappers_are_gone_after_the_run(tmp_path):
    import torch.serialization

    before = (torch.save, torch.jit.script, torch.serialization.save)
    _train(tmp_path, lambda m: None)
    assert (torch.save, torch.jit.script, torch.serialization.save) == before


def test_a_save_from_a_background_thread_leaves_the_training_thread_its_hook(tmp_path):
    # an async checkpointer saves from its own thread while the loop goes on: the hook the
    # loop's forwards need stays (its pickle is the inert one); a save on the training
    # thread still detaches it
    import threading

    seen = []

    class Probe:  # pickled with the model: how many input hooks the model has right then
        def __init__(self, model):
            self.model = model

        def __reduce__(self):
            seen.append(len(self.model._forward_pre_hooks))
            return (dict, ())

    def save_both_ways(model):
        torch.save(Probe(model), io.BytesIO())
        box = []
        t = threading.Thread(target=lambda: box.append(torch.save({"m": model, "p": Probe(model)}, io.BytesIO())))
        t.start()
        t.join()
        assert box == [None]

    _train(tmp_path, save_both_ways)
    assert seen == [0, 1]
