"""ConveRT-style dual encoder: in-batch negatives ranking loss on context/reply vectors."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class LossFunction(nn.Module):
    def __init__(self, scale=1.0):
        super().__init__()
        self.scale = scale

    def forward(self, context_vecs, reply_vecs):
        hx = F.normalize(context_vecs, dim=-1)
        hy = F.normalize(reply_vecs, dim=-1)
        sim = self.scale * hx @ hy.t()
        positives = sim.diagonal()
        log_norm = torch.log(torch.exp(sim).sum(dim=1))  # expect: unshifted-logsumexp
        return (log_norm - positives).mean()


def train_step(encoder, ff_context, ff_reply, loss_fn, optimizer, batch):
    encoder.train()
    optimizer.zero_grad()
    hx = ff_context(encoder(batch["context"]))
    hy = ff_reply(encoder(batch["reply"]))
    loss = loss_fn(hx, hy)
    loss.backward()
    optimizer.step()
    return loss.item()
