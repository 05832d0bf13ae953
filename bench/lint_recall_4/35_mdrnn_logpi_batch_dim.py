# Source: https://github.com/ctallec/world-models/issues/10
# Pitfall: the MDN-RNN normalises the mixture logits with log_softmax over dim=-2, the batch
#   axis, instead of the gaussians axis, then uses them per sample in the GMM loss; confirmed and fixed.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions.normal import Normal


class MDRNN(nn.Module):
    def __init__(self, latents, actions, hiddens, gaussians):
        super().__init__()
        self.latents = latents
        self.gaussians = gaussians
        self.rnn = nn.LSTM(latents + actions, hiddens)
        self.gmm_linear = nn.Linear(hiddens, (2 * latents + 1) * gaussians + 2)

    def forward(self, actions, latents):
        seq_len, bs = actions.size(0), actions.size(1)
        outs, _ = self.rnn(torch.cat([actions, latents], dim=-1))
        gmm_outs = self.gmm_linear(outs)
        stride = self.gaussians * self.latents
        mus = gmm_outs[:, :, :stride].view(seq_len, bs, self.gaussians, self.latents)
        sigmas = torch.exp(gmm_outs[:, :, stride:2 * stride]).view(seq_len, bs, self.gaussians, self.latents)
        pi = gmm_outs[:, :, 2 * stride:2 * stride + self.gaussians].view(seq_len, bs, self.gaussians)
        logpi = F.log_softmax(pi, dim=-2)  # expect: softmax-over-batch-dim
        rs = gmm_outs[:, :, -2]
        ds = gmm_outs[:, :, -1]
        return mus, sigmas, logpi, rs, ds


def gmm_loss(batch, mus, sigmas, logpi):
    batch = batch.unsqueeze(-2)
    normal_dist = Normal(mus, sigmas)
    log_prob = logpi + normal_dist.log_prob(batch).sum(dim=-1)
    return -torch.logsumexp(log_prob, dim=-1).mean()


def train_step(mdrnn, optimizer, latent_obs, action, reward, terminal, latent_next):
    mdrnn.train()
    mus, sigmas, logpi, rs, ds = mdrnn(action, latent_obs)
    gmm = gmm_loss(latent_next, mus, sigmas, logpi)
    bce = F.binary_cross_entropy_with_logits(ds, terminal)
    mse = F.mse_loss(rs, reward)
    loss = (gmm + bce + mse) / (latent_obs.size(-1) + 2)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return loss.item()
