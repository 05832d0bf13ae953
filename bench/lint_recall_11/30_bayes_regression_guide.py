"""Bayesian linear regression with a hand-written mean-field guide trained by SVI."""
import pyro
import pyro.distributions as dist
import torch
from pyro.infer import SVI, Trace_ELBO
from pyro.optim import Adam

p = 1


def model(data):
    x_data = data[:, :-1]
    y_data = data[:, -1]
    w = pyro.sample("w", dist.Normal(torch.zeros(1, p).type_as(data), torch.ones(1, p).type_as(data)).to_event(2))
    b = pyro.sample("b", dist.Normal(torch.tensor([8.0]).type_as(data), torch.tensor([1000.0]).type_as(data)).to_event(1))
    with pyro.plate("map", len(data)):
        prediction_mean = (x_data @ w.t()).squeeze(-1) + b
        pyro.sample("obs", dist.Normal(prediction_mean, 1.0), obs=y_data)


def guide(data):
    w_loc = torch.randn(1, p, requires_grad=True).type_as(data)  # expect: non-leaf-parameter
    w_log_sig = (-3.0 * torch.ones(1, p) + 0.05 * torch.randn(1, p)).type_as(data)
    w_log_sig.requires_grad = True
    b_loc = torch.randn(1).type_as(data)
    b_loc.requires_grad = True
    b_log_sig = (-3.0 * torch.ones(1) + 0.05 * torch.randn(1)).type_as(data)
    b_log_sig.requires_grad = True
    mw_param = pyro.param("guide_mean_weight", w_loc)
    sw_param = torch.exp(pyro.param("guide_log_scale_weight", w_log_sig))
    mb_param = pyro.param("guide_mean_bias", b_loc)
    sb_param = torch.exp(pyro.param("guide_log_scale_bias", b_log_sig))
    pyro.sample("w", dist.Normal(mw_param, sw_param).to_event(2))
    pyro.sample("b", dist.Normal(mb_param, sb_param).to_event(1))


def main(data, num_iterations=1000):
    pyro.clear_param_store()
    svi = SVI(model, guide, Adam({"lr": 0.01}), loss=Trace_ELBO())
    for j in range(num_iterations):
        loss = svi.step(data)
        if j % 100 == 0:
            print(f"[iteration {j + 1:04d}] loss: {loss / float(len(data)):.4f}")
