"""Neural relational inference: edge-type encoder trained as a VAE over trajectories."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


def my_softmax(x, axis=1):
    trans = x.transpose(axis, 0).contiguous()
    soft = F.softmax(trans)  # expect: softmax-without-dim
    return soft.transpose(axis, 0)


def encode_onehot(labels):
    classes = sorted(set(labels))
    table = {c: np.identity(len(classes))[i, :] for i, c in enumerate(classes)}
    return np.array([table[c] for c in labels], dtype=np.int32)


class MLPEncoder(nn.Module):
    def __init__(self, n_in, n_hid, edge_types):
        super().__init__()
        self.node_mlp = nn.Sequential(nn.Linear(n_in, n_hid), nn.ELU(), nn.Linear(n_hid, n_hid))
        self.edge_mlp = nn.Sequential(nn.Linear(2 * n_hid, n_hid), nn.ELU(), nn.Linear(n_hid, n_hid))
        self.fc_out = nn.Linear(n_hid, edge_types)

    def forward(self, inputs, rel_rec, rel_send):
        x = inputs.view(inputs.size(0), inputs.size(1), -1)
        x = self.node_mlp(x)
        receivers = torch.matmul(rel_rec, x)
        senders = torch.matmul(rel_send, x)
        edges = torch.cat([senders, receivers], dim=2)
        return self.fc_out(self.edge_mlp(edges))


def kl_categorical_uniform(preds, num_atoms, num_edge_types, eps=1e-16):
    kl_div = preds * torch.log(preds + eps)
    return (kl_div.sum() + np.log(num_edge_types)) / (num_atoms * preds.size(0))


def train_encoder(encoder, optimizer, loader, rel_rec, rel_send, num_atoms, edge_types):
    encoder.train()
    for data, relations in loader:
        optimizer.zero_grad()
        logits = encoder(data, rel_rec, rel_send)
        prob = my_softmax(logits, -1)
        loss_kl = kl_categorical_uniform(prob, num_atoms, edge_types)
        loss_sup = F.cross_entropy(logits.view(-1, edge_types), relations.view(-1))
        loss = loss_sup + 0.1 * loss_kl
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    atoms, types = 5, 2
    off_diag = np.ones([atoms, atoms]) - np.eye(atoms)
    rel_rec = torch.FloatTensor(encode_onehot(np.where(off_diag)[0]))
    rel_send = torch.FloatTensor(encode_onehot(np.where(off_diag)[1]))
    enc = MLPEncoder(49 * 4, 64, types)
    opt = torch.optim.Adam(enc.parameters(), lr=5e-4)
    batch = [(torch.randn(8, atoms, 49, 4), torch.randint(0, types, (8, atoms * (atoms - 1))))]
    train_encoder(enc, opt, batch, rel_rec, rel_send, atoms, types)
