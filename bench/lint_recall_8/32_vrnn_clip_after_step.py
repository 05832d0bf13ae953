# Source: https://github.com/emited/VariationalRecurrentNeuralNetwork/issues/3
# Pitfall: the VRNN training loop clips the gradient norm only after optimizer.step(), so the update
# has already used the unclipped gradients and the clipping never protects a step.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class TinyVRNN(nn.Module):
    def __init__(self, x_dim=28, h_dim=64, z_dim=16):
        super().__init__()
        self.phi_x = nn.Sequential(nn.Linear(x_dim, h_dim), nn.ReLU())
        self.enc = nn.Linear(2 * h_dim, 2 * z_dim)
        self.prior = nn.Linear(h_dim, 2 * z_dim)
        self.phi_z = nn.Sequential(nn.Linear(z_dim, h_dim), nn.ReLU())
        self.dec = nn.Linear(2 * h_dim, x_dim)
        self.rnn = nn.GRUCell(2 * h_dim, h_dim)
        self.h_dim = h_dim

    def forward(self, x):
        h = x.new_zeros(x.size(1), self.h_dim)
        kld, nll = 0.0, 0.0
        for t in range(x.size(0)):
            px = self.phi_x(x[t])
            enc_mu, enc_logvar = self.enc(torch.cat([px, h], 1)).chunk(2, 1)
            pri_mu, pri_logvar = self.prior(h).chunk(2, 1)
            z = enc_mu + torch.randn_like(enc_mu) * (0.5 * enc_logvar).exp()
            pz = self.phi_z(z)
            dec_logits = self.dec(torch.cat([pz, h], 1))
            kld = kld + 0.5 * torch.sum(pri_logvar - enc_logvar
                                        + (enc_logvar.exp() + (enc_mu - pri_mu) ** 2) * torch.exp(-pri_logvar) - 1)
            nll = nll + F.binary_cross_entropy_with_logits(dec_logits, x[t], reduction="sum")
            h = self.rnn(torch.cat([px, pz], 1), h)
        return kld, nll


def train(epoch, model, optimizer, loader, clip=10.0):
    model.train()
    train_loss = 0.0
    for batch_idx, (data,) in enumerate(loader):
        data = data.transpose(0, 1)
        optimizer.zero_grad()
        kld_loss, nll_loss = model(data)
        loss = (kld_loss + nll_loss) / data.size(1)
        loss.backward()
        optimizer.step()
        nn.utils.clip_grad_norm_(model.parameters(), clip)  # expect: clip-after-step
        train_loss += loss.item()
    print(f"epoch {epoch}: average loss {train_loss / len(loader):.4f}")


if __name__ == "__main__":
    seqs = (torch.rand(256, 28, 28) > 0.5).float()
    loader = DataLoader(TensorDataset(seqs), batch_size=32, shuffle=True)
    model = TinyVRNN()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(2):
        train(epoch, model, optimizer, loader)
