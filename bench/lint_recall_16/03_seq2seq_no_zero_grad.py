"""GRU encoder-decoder trained with teacher forcing and a masked token loss."""
import torch
import torch.nn as nn


class Seq2Seq(nn.Module):
    def __init__(self, src_vocab, tgt_vocab, emb=32, hid=64):
        super().__init__()
        self.src_emb = nn.Embedding(src_vocab, emb)
        self.tgt_emb = nn.Embedding(tgt_vocab, emb)
        self.encoder = nn.GRU(emb, hid, batch_first=True)
        self.decoder = nn.GRU(emb, hid, batch_first=True)
        self.out = nn.Linear(hid, tgt_vocab)

    def forward(self, src, dec_in):
        _, state = self.encoder(self.src_emb(src))
        dec_out, _ = self.decoder(self.tgt_emb(dec_in), state)
        return self.out(dec_out)


class MaskedCE(nn.CrossEntropyLoss):
    def forward(self, logits, target, valid_len):
        mask = torch.arange(target.shape[1], device=target.device)[None, :] < valid_len[:, None]
        self.reduction = "none"
        per_token = super().forward(logits.permute(0, 2, 1), target)
        return (per_token * mask).sum() / mask.sum().clamp(min=1)


def train_seq2seq(net, data_iter, lr, num_epochs, bos_id, device):
    net.to(device)
    optimizer = torch.optim.Adam(net.parameters(), lr=lr)
    loss_fn = MaskedCE()
    net.train()
    for epoch in range(num_epochs):
        total, n = 0.0, 0
        for batch in data_iter:
            src, src_len, tgt, tgt_len = [x.to(device) for x in batch]
            bos = torch.full((tgt.shape[0], 1), bos_id, device=device)
            dec_in = torch.cat([bos, tgt[:, :-1]], dim=1)
            logits = net(src, dec_in)
            loss = loss_fn(logits, tgt, tgt_len)
            loss.backward()  # expect: gradients-never-cleared
            nn.utils.clip_grad_norm_(net.parameters(), 1.0)
            optimizer.step()
            total += loss.item()
            n += 1
        print(f"epoch {epoch}: loss {total / max(n, 1):.3f}")


def fake_batches(n=20, bs=16, src_vocab=100, tgt_vocab=120, steps=10):
    for _ in range(n):
        src = torch.randint(3, src_vocab, (bs, steps))
        tgt = torch.randint(3, tgt_vocab, (bs, steps))
        lens = torch.randint(2, steps + 1, (bs,))
        yield src, lens, tgt, lens


if __name__ == "__main__":
    model = Seq2Seq(100, 120)
    data = list(fake_batches())
    train_seq2seq(model, data, lr=5e-3, num_epochs=3, bos_id=1, device="cpu")
