"""Dialogue state tracking (TRADE-style): pointer-generator decoder trained with a masked cross entropy."""
import torch
import torch.nn as nn


def masking(losses, mask):
    max_len = losses.size(2)
    steps = torch.arange(max_len, device=losses.device).view(1, 1, -1)
    mask_ = steps < mask.unsqueeze(-1)
    losses = losses * mask_.float()
    return losses.sum() / mask_.sum().clamp(min=1).float()


class DSTMaskedCrossEntropy(nn.Module):
    """Loss over point-generator outputs, which are already probabilities (mixture of vocab and copy)."""

    def forward(self, logits, targets, mask):
        # logits: b x |slots| x max_len x vocab, probabilities after the copy gate
        logits_flat = logits.view(-1, logits.size(-1))
        log_probs_flat = torch.log(logits_flat)  # expect: unguarded-zero
        target_flat = targets.view(-1, 1)
        losses_flat = -torch.gather(log_probs_flat, dim=1, index=target_flat)
        losses = losses_flat.view(*targets.size())
        return masking(losses, mask)


class PointerGeneratorDecoder(nn.Module):
    def __init__(self, vocab_size, hidden=400):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, hidden)
        self.rnn = nn.GRU(hidden, hidden, batch_first=True)
        self.vocab_proj = nn.Linear(hidden, vocab_size)
        self.gate = nn.Linear(2 * hidden, 1)

    def forward(self, decoder_input, hidden, enc_out, context_ids):
        out, hidden = self.rnn(self.embed(decoder_input), hidden)
        attn = torch.softmax(torch.bmm(out, enc_out.transpose(1, 2)), dim=-1)
        context = torch.bmm(attn, enc_out)
        p_vocab = torch.softmax(self.vocab_proj(out), dim=-1)
        p_copy = torch.zeros_like(p_vocab).scatter_add(
            2, context_ids.unsqueeze(1).expand(-1, out.size(1), -1), attn)
        switch = torch.sigmoid(self.gate(torch.cat([out, context], dim=-1)))
        return switch * p_vocab + (1 - switch) * p_copy, hidden


def train_step(decoder, criterion, optimizer, batch):
    decoder.train()
    optimizer.zero_grad()
    probs, _ = decoder(batch["dec_in"], batch["hidden"], batch["enc_out"], batch["context_ids"])
    probs = probs.unsqueeze(1)  # single slot for brevity
    loss = criterion(probs, batch["targets"].unsqueeze(1), batch["lengths"].unsqueeze(1))
    loss.backward()
    nn.utils.clip_grad_norm_(decoder.parameters(), 10.0)
    optimizer.step()
    return loss.item()


if __name__ == "__main__":
    dec = PointerGeneratorDecoder(vocab_size=1000)
    opt = torch.optim.Adam(dec.parameters(), lr=1e-3)
    b = {
        "dec_in": torch.randint(0, 1000, (8, 6)),
        "hidden": torch.zeros(1, 8, 400),
        "enc_out": torch.randn(8, 20, 400),
        "context_ids": torch.randint(0, 1000, (8, 20)),
        "targets": torch.randint(0, 1000, (8, 6)),
        "lengths": torch.randint(1, 7, (8,)),
    }
    print(train_step(dec, DSTMaskedCrossEntropy(), opt, b))
