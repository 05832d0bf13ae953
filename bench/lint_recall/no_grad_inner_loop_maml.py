# Source: https://github.com/dragen1860/MAML-Pytorch/issues/40
# Pitfall: the query losses are computed under torch.no_grad(); with update_step=1 the loss
# that reaches backward() is one of them ("does not require grad").
# Reproduced in our own words, not the original code.
import torch
import torch.nn.functional as F


def meta_step(net, meta_optim, x_spt, y_spt, x_qry, y_qry, update_lr=0.4, update_step=1):
    losses_q = [0.0 for _ in range(update_step + 1)]
    logits = net(x_spt)
    grad = torch.autograd.grad(F.cross_entropy(logits, y_spt), net.parameters())
    fast_weights = [p - update_lr * g for g, p in zip(grad, net.parameters())]
    with torch.no_grad():
        losses_q[1] += F.cross_entropy(net(x_qry, fast_weights), y_qry)
    loss_q = losses_q[-1]
    meta_optim.zero_grad()
    loss_q.backward()  # expect: backward-without-graph
    meta_optim.step()
