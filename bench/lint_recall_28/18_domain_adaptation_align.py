"""Time/frequency domain adaptation: align source and target views with KL divergence terms."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Encoder(nn.Module):
    def __init__(self, in_ch, hidden=64, n_classes=5):
        super().__init__()
        self.net = nn.Sequential(nn.Conv1d(in_ch, hidden, 8, padding=4), nn.ReLU(), nn.AdaptiveAvgPool1d(1), nn.Flatten())
        self.cls = nn.Linear(hidden, n_classes)

    def forward(self, x):
        return self.cls(self.net(x))


def align_loss(p_logits, q_logits, temperature=1.0):
    log_p = F.log_softmax(p_logits / temperature, dim=1)
    q = F.softmax(q_logits.detach() / temperature, dim=1)
    return F.kl_div(log_p, q)  # expect: kl-div-mean-reduction


def cond_entropy(logits):
    p = F.softmax(logits, dim=1)
    return -(p * F.log_softmax(logits, dim=1)).sum(dim=1).mean()


def train_epoch(enc_t, enc_f, optimizer, src_loader, tgt_loader):
    enc_t.train()
    enc_f.train()
    for (xs_t, xs_f, ys), (xt_t, xt_f) in zip(src_loader, tgt_loader):
        optimizer.zero_grad()
        src_t, src_f = enc_t(xs_t), enc_f(xs_f)
        tgt_t, tgt_f = enc_t(xt_t), enc_f(xt_f)
        cls_loss = F.cross_entropy(src_t, ys) + F.cross_entropy(src_f, ys)
        align_src = align_loss(src_t, src_f)
        align_tgt = F.kl_div(F.log_softmax(tgt_f, dim=1), F.softmax(tgt_t.detach(), dim=1), reduction="mean")  # expect: kl-div-mean-reduction
        loss = cls_loss + 0.5 * (align_src + align_tgt) + 0.1 * cond_entropy(tgt_t)
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    et, ef = Encoder(3), Encoder(3)
    opt = torch.optim.Adam(list(et.parameters()) + list(ef.parameters()), lr=1e-3)
    src = [(torch.randn(8, 3, 128), torch.randn(8, 3, 128), torch.randint(0, 5, (8,)))]
    tgt = [(torch.randn(8, 3, 128), torch.randn(8, 3, 128))]
    train_epoch(et, ef, opt, src, tgt)
