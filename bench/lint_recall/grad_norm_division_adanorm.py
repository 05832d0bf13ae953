# Source: https://github.com/shivram1987/AdaNorm/issues/1
# Pitfall: an optimizer rescales the gradient by exp_grad_norm / grad_norm with no epsilon;
# a zero gradient (a frozen or unused parameter) gives 0/0 = NaN.
# Reproduced in our own words, not the original code.
import torch


@torch.no_grad()
def adanorm_scale(grad, state, gamma=0.95):
    grad_norm = torch.norm(grad)
    state["exp_grad_norm"] = gamma * state.get("exp_grad_norm", grad_norm) + (1 - gamma) * grad_norm
    if state["exp_grad_norm"] > grad_norm:
        grad = grad * state["exp_grad_norm"] / grad_norm  # expect: unguarded-zero
    return grad
