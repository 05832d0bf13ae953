"""Minimal causal LM wrapper: load a checkpoint, then fine-tune the head for a few steps."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class TinyCausalLM(nn.Module):
    def __init__(self, vocab_size=32000, dim=512, n_layers=4):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, dim)
        layer = nn.TransformerEncoderLayer(dim, 8, 4 * dim, batch_first=True, norm_first=True)
        self.blocks = nn.TransformerEncoder(layer, n_layers)
        self.lm_head = nn.Linear(dim, vocab_size, bias=False)

    def forward(self, ids):
        mask = nn.Transformer.generate_square_subsequent_mask(ids.size(1), device=ids.device)
        return self.lm_head(self.blocks(self.embed(ids), mask=mask, is_causal=True))

    def load_weights(self, model_path: str):
        self.load_state_dict(
            torch.load(model_path, mmap=True)["model_state_dict"],  # expect: torch-load-unsafe
            strict=False,
        )


def finetune(model_path, batches, steps=100):
    model = TinyCausalLM()
    model.load_weights(model_path)
    for p in model.parameters():
        p.requires_grad_(False)
    model.lm_head.weight.requires_grad_(True)
    opt = torch.optim.AdamW([model.lm_head.weight], lr=1e-4)
    model.train()
    for step, ids in zip(range(steps), batches):
        opt.zero_grad()
        logits = model(ids[:, :-1])
        loss = F.cross_entropy(logits.reshape(-1, logits.size(-1)), ids[:, 1:].reshape(-1))
        loss.backward()
        opt.step()
    return model
