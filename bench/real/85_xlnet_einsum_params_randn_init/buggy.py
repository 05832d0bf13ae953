"""XLNet-style encoder whose attention projections and biases are nn.Parameter(torch.randn(...)):
unit-variance weights saturate the attention softmax and the classifier learns poorly.

Source: https://github.com/graykode/xlnet-Pytorch/issues/17 (Parameter initialized with torch.randn may be not a good choice)
Report: "It seems that the parameter initialized with randn
(https://github.com/graykode/xlnet-Pytorch/blob/cb793a1c75bdc59e3360f04ec641af726719811f/xlnet.py#L119)
will lead to low-performance, and I tried xavier_norm and kaiming_uniform, both reach a much
higher AUC and F1 score in my task." In xlnet.py the query/key/value/relative projections
(d_model x n_head x d_head), the output projection and the r_w/r_r/r_s biases are all
`nn.Parameter(torch.randn(...))`: with d_model 64 each head score is a sum of hundreds of unit
products, the softmax is one-hot from the start and gradients through it vanish. Reproduced
with the repo's einsum attention (shared across layers as in xlnet.py, content stream + r_w
bias, post-attention projection, residual LayerNorm, ReLU position-wise FFN), 2 layers,
d_model 64, 4 heads of 16, mean pooling and a binary head, Adam 1e-3, batch 64, on a synthetic
review task: 24-token texts whose label is whether "praise" words outnumber "complaint" words;
`acc` is held-out accuracy (the reporter measured AUC/F1).

expect: bad-init
symptom: final-loss-ratio 3
batch: 4
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

V, L = 500, 24
praise, complaint = torch.arange(0, 10), torch.arange(10, 20)


def reviews(n):
    x = torch.randint(20, V, (n, L))
    n_p, n_c = torch.randint(0, 5, (n,)), torch.randint(0, 5, (n,))
    for i in range(n):
        pos = torch.randperm(L)[:int(n_p[i] + n_c[i])]
        x[i, pos[:n_p[i]]] = praise[torch.randint(0, 10, (int(n_p[i]),))]
        x[i, pos[n_p[i]:]] = complaint[torch.randint(0, 10, (int(n_c[i]),))]
    return x, (n_p > n_c).float()


class XLNetClassifier(nn.Module):
    def __init__(self, n_token=V, n_layer=2, n_head=4, d_head=16, d_model=64, d_inner=128):
        super().__init__()
        self.n_layer, self.d_head = n_layer, d_head
        self.embedding = nn.Embedding(n_token, d_model)
        self.r_w_bias = nn.Parameter(torch.randn(n_layer, n_head, d_head))
        self.proj_o = nn.Parameter(torch.randn(d_model, n_head, d_head))
        self.q_proj_weight = nn.Parameter(torch.randn(d_model, n_head, d_head))
        self.k_proj_weight = nn.Parameter(torch.randn(d_model, n_head, d_head))
        self.v_proj_weight = nn.Parameter(torch.randn(d_model, n_head, d_head))
        self.layer_norm = nn.LayerNorm(d_model)
        self.conv1 = nn.Linear(d_model, d_inner)
        self.conv2 = nn.Linear(d_inner, d_model)
        self.head = nn.Linear(d_model, 1)

    def rel_multihead_attn(self, h, r_w_bias):
        scale = 1 / (self.d_head ** 0.5)
        q_head = torch.einsum('ibh,hnd->ibnd', h, self.q_proj_weight)
        k_head = torch.einsum('ibh,hnd->ibnd', h, self.k_proj_weight)
        v_head = torch.einsum('ibh,hnd->ibnd', h, self.v_proj_weight)
        attn_score = torch.einsum('ibnd,jbnd->ijbn', q_head + r_w_bias, k_head) * scale
        attn_prob = F.softmax(attn_score, dim=1)
        attn_vec = torch.einsum('ijbn,jbnd->ibnd', attn_prob, v_head)
        attn_out = torch.einsum('ibnd,hnd->ibh', attn_vec, self.proj_o)
        return self.layer_norm(attn_out + h)

    def positionwise_ffn(self, inp):
        output = self.conv2(F.relu(self.conv1(inp)))
        return self.layer_norm(output + inp)

    def forward(self, tokens):
        h = self.embedding(tokens.t())  # [len, bsz, d_model] as in xlnet.py
        for i in range(self.n_layer):
            h = self.positionwise_ffn(self.rel_multihead_attn(h, self.r_w_bias[i]))
        return self.head(h.mean(0)).squeeze(1)


train_x, train_y = reviews(3000)
test_x, test_y = reviews(1000)
model = XLNetClassifier()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
losses = []
for epoch in range(5):
    perm = torch.randperm(len(train_x))
    for i in range(0, len(perm), 64):
        idx = perm[i:i + 64]
        loss = F.binary_cross_entropy_with_logits(model(train_x[idx]), train_y[idx])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    print(f"epoch {epoch} loss {sum(losses[-60:]) / 60:.4f}")

with torch.no_grad():
    acc = ((model(test_x) > 0).float() == test_y).float().mean().item()
print(f"final_loss={sum(losses[-30:]) / 30:.6g} acc={acc:.4f}")
