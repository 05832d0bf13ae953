"""A GAN's losses are a game's: the generator's loss rises as the discriminator improves.
The monitor marks each optimizer whose parameters the first loss's gradient reaches
(``in_first_loss``); two such optimizers, each stepping on a backward of its own, are an
adversarial run: loss-divergence is a warning there and loss-plateau is silent. Two
independent models trained in one loop are not (MorvanZhou's PyTorch-Tutorial 406_GAN.py
got loss-divergence at error severity on its healthy run before)."""

import torch
from torch import nn

import traindoc
from traindoc.rules.util import adversarial


def _gan(tmp_path, steps=400):
    torch.manual_seed(0)
    G = nn.Sequential(nn.Linear(4, 32), nn.ReLU(), nn.Linear(32, 8))
    D = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 1), nn.Sigmoid())
    # a discriminator that learns faster than its generator: the generator's loss rises
    opt_g, opt_d = torch.optim.Adam(G.parameters(), 1e-4), torch.optim.Adam(D.parameters(), 1e-2)
    with traindoc.watch(out=tmp_path / "r", replay=False):
        for _ in range(steps):
            real = torch.randn(32, 8) * 0.5 + 2.0
            fake = G(torch.randn(32, 4))
            g_loss = -torch.log(D(fake)).mean()  # the non-saturating form: rises as D wins
            opt_g.zero_grad()
            g_loss.backward()
            opt_g.step()
            d_loss = -(torch.log(D(real)) + torch.log(1 - D(fake.detach()))).mean()
            opt_d.zero_grad()
            d_loss.backward()
            opt_d.step()
    return traindoc.open_run(tmp_path / "r")


def _two_models(tmp_path, steps=200):
    torch.manual_seed(0)
    a, b = nn.Linear(8, 1), nn.Linear(8, 1)
    opt_a, opt_b = torch.optim.SGD(a.parameters(), 0.05), torch.optim.SGD(b.parameters(), 0.05)
    x = torch.randn(256, 8)
    y = x.sum(1, keepdim=True)
    with traindoc.watch(out=tmp_path / "r", replay=False):
        for _ in range(steps):
            for m, o in ((a, opt_a), (b, opt_b)):
                loss = nn.functional.mse_loss(m(x), y)
                o.zero_grad()
                loss.backward()
                o.step()
    return traindoc.open_run(tmp_path / "r")


def test_a_gan_is_adversarial_and_its_rising_loss_is_no_error(tmp_path):
    run = _gan(tmp_path)
    assert run.has("loss/opt1")
    reach = run.meta["loss_reach"]
    assert reach["0"]["own"] and reach["1"]["own"] and set(reach["0"]["reach"]) & set(reach["1"]["reach"])
    assert adversarial(run)
    d = traindoc.diagnose(run)
    assert all(s.severity != "error" for s in d.symptoms if s.name == "loss-divergence"), d.symptoms
    assert "loss-plateau" not in [s.name for s in d.symptoms]


def test_two_independent_models_are_not(tmp_path):
    run = _two_models(tmp_path)
    assert run.has("loss/opt1")
    reach = run.meta["loss_reach"]
    assert reach["0"]["own"] and reach["1"]["own"] and not set(reach["0"]["reach"]) & set(reach["1"]["reach"])
    assert not adversarial(run)


def test_the_dcgan_order_discriminator_first_is_adversarial_too(tmp_path):
    torch.manual_seed(0)
    G, D = nn.Linear(4, 8), nn.Sequential(nn.Linear(8, 1), nn.Sigmoid())
    opt_g, opt_d = torch.optim.Adam(G.parameters(), 1e-3), torch.optim.Adam(D.parameters(), 1e-3)
    bce = nn.functional.binary_cross_entropy
    with traindoc.watch(out=tmp_path / "r", replay=False):
        for _ in range(30):
            D.zero_grad()
            real = torch.randn(16, 8)
            bce(D(real), torch.ones(16, 1)).backward()
            fake = G(torch.randn(16, 4))
            bce(D(fake.detach()), torch.zeros(16, 1)).backward()
            opt_d.step()
            G.zero_grad()
            bce(D(fake), torch.ones(16, 1)).backward()
            opt_g.step()
    assert adversarial(traindoc.open_run(tmp_path / "r"))


def test_an_encoder_decoder_pair_on_one_loss_or_an_optimizer_per_epoch_is_not(tmp_path):
    torch.manual_seed(0)
    enc, dec = nn.Linear(8, 2), nn.Linear(2, 8)
    opt_e, opt_d = torch.optim.Adam(enc.parameters(), 1e-3), torch.optim.Adam(dec.parameters(), 1e-3)
    x = torch.randn(64, 8)
    with traindoc.watch(out=tmp_path / "a", replay=False):
        for _ in range(30):
            opt_e.zero_grad()
            opt_d.zero_grad()
            nn.functional.mse_loss(dec(enc(x)), x).backward()
            opt_e.step()
            opt_d.step()
    assert not adversarial(traindoc.open_run(tmp_path / "a"))
    with traindoc.watch(out=tmp_path / "b", replay=False):
        for _ in range(3):  # a new optimizer each epoch over the same model
            opt = torch.optim.SGD(enc.parameters(), 0.01)
            for _ in range(10):
                opt.zero_grad()
                enc(x).pow(2).mean().backward()
                opt.step()
    assert not adversarial(traindoc.open_run(tmp_path / "b"))
