# Source: https://github.com/midas-research/man-sf-emnlp/issues/2
# Pitfall: the stock-movement classifier's output goes through F.softmax and is then given to
# F.nll_loss, which expects log-probabilities: the loss is just -p(target) and trains poorly.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn
import torch.nn.functional as F


class GraphAttentionLayer(nn.Module):
    def __init__(self, d_in, d_out):
        super().__init__()
        self.W = nn.Linear(d_in, d_out, bias=False)
        self.a = nn.Linear(2 * d_out, 1, bias=False)

    def forward(self, h, adj):
        wh = self.W(h)
        n = wh.size(0)
        pair = torch.cat([wh.unsqueeze(1).expand(n, n, -1), wh.unsqueeze(0).expand(n, n, -1)], dim=-1)
        e = F.leaky_relu(self.a(pair).squeeze(-1), 0.2)
        e = e.masked_fill(adj == 0, -1e9)
        return F.elu(torch.softmax(e, dim=1) @ wh)


class MarketNet(nn.Module):
    def __init__(self, d_text=32, d_price=6, hidden=32):
        super().__init__()
        self.text_gru = nn.GRU(d_text, hidden, batch_first=True)
        self.price_gru = nn.GRU(d_price, hidden, batch_first=True)
        self.gat = GraphAttentionLayer(2 * hidden, hidden)
        self.out = nn.Linear(hidden, 2)

    def forward(self, text, price, adj):
        _, ht = self.text_gru(text)
        _, hp = self.price_gru(price)
        h = torch.cat([ht[-1], hp[-1]], dim=-1)
        return F.softmax(self.out(self.gat(h, adj)), dim=1)


def train(model, optimizer, text, price, adj, labels, epochs=20):
    for epoch in range(epochs):
        model.train()
        optimizer.zero_grad()
        output = model(text, price, adj)
        loss_train = F.nll_loss(output, labels)  # expect: softmax-before-cross-entropy
        loss_train.backward()
        optimizer.step()
        acc = (output.argmax(1) == labels).float().mean().item()
        print(epoch, round(loss_train.item(), 4), round(acc, 3))


if __name__ == "__main__":
    n_stocks = 20
    model = MarketNet()
    opt = torch.optim.Adam(model.parameters(), lr=5e-4, weight_decay=5e-4)
    adj = (torch.rand(n_stocks, n_stocks) > 0.7).float() + torch.eye(n_stocks)
    train(model, opt, torch.randn(n_stocks, 5, 32), torch.randn(n_stocks, 5, 6), adj,
          torch.randint(0, 2, (n_stocks,)), epochs=3)
