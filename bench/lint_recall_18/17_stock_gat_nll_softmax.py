"""Stock movement prediction with a graph attention network over tweet + price features (one trading day per step)."""
import pickle

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from sklearn.metrics import f1_score, matthews_corrcoef


class GraphAttention(nn.Module):
    def __init__(self, in_dim, out_dim, alpha=0.2):
        super().__init__()
        self.W = nn.Linear(in_dim, out_dim, bias=False)
        self.a = nn.Linear(2 * out_dim, 1, bias=False)
        self.leaky = nn.LeakyReLU(alpha)

    def forward(self, h, adj):
        wh = self.W(h)
        n = wh.size(0)
        pairs = torch.cat([wh.repeat_interleave(n, 0), wh.repeat(n, 1)], dim=1).view(n, n, -1)
        e = self.leaky(self.a(pairs).squeeze(-1))
        e = e.masked_fill(adj == 0, -9e15)
        att = F.softmax(e, dim=1)
        return F.elu(att @ wh)


class StockGAT(nn.Module):
    def __init__(self, text_dim=512, price_dim=3, hidden=64, n_class=2):
        super().__init__()
        self.text_gru = nn.GRU(text_dim, hidden, batch_first=True)
        self.price_gru = nn.GRU(price_dim, hidden, batch_first=True)
        self.gat = GraphAttention(2 * hidden, hidden)
        self.out = nn.Linear(hidden, n_class)

    def forward(self, text, price, adj):
        _, ht = self.text_gru(text)
        _, hp = self.price_gru(price)
        h = torch.cat([ht[-1], hp[-1]], dim=1)
        return self.out(self.gat(h, adj))


def train_step(model, optimizer, text, price, labels, adj):
    model.train()
    optimizer.zero_grad()
    output = model(text, price, adj)
    loss = F.cross_entropy(output, labels)
    loss.backward()
    optimizer.step()
    return loss.item()


def test_dict(model, feature_data, text_ft_data, true_label, adj, device):
    model.eval()
    pred_dict, losses, li_pred, li_true = {}, [], [], []
    with torch.no_grad():
        for date in feature_data:
            text = torch.tensor(text_ft_data[date], dtype=torch.float32, device=device)
            price = torch.tensor(feature_data[date], dtype=torch.float32, device=device)
            label = torch.as_tensor(true_label[date], dtype=torch.long, device=device)
            output = F.softmax(model(text, price, adj), dim=1)
            pred_dict[date] = output.cpu().numpy()
            loss_test = F.nll_loss(output, label)  # expect: softmax-before-cross-entropy
            losses.append(loss_test.item())
            li_pred.append(output.argmax(dim=1).cpu().numpy())
            li_true.append(label.cpu().numpy())
    y_pred, y_true = np.concatenate(li_pred), np.concatenate(li_true)
    print("loss", np.mean(losses), "F1", f1_score(y_true, y_pred, average="micro"),
          "MCC", matthews_corrcoef(y_true, y_pred))
    with open("pred_dict.p", "wb") as fp:
        pickle.dump(pred_dict, fp)
