# Source: https://github.com/rasbt/LLMs-from-scratch/commit/1b635f760e7c31598e4c67fa87e54ee271511b85
# Pitfall: after training, the script reloads the checkpoint with weights_only=True placed inside
#   load_state_dict(...) instead of torch.load(...), so torch.load itself still unpickles arbitrary objects.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn
import torch.nn.functional as F

CFG = {"vocab_size": 50257, "context_length": 256, "emb_dim": 384, "n_heads": 6, "n_layers": 6, "drop_rate": 0.1}


class TinyGPT(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.tok_emb = nn.Embedding(cfg["vocab_size"], cfg["emb_dim"])
        self.pos_emb = nn.Embedding(cfg["context_length"], cfg["emb_dim"])
        layer = nn.TransformerEncoderLayer(cfg["emb_dim"], cfg["n_heads"], 4 * cfg["emb_dim"],
                                           cfg["drop_rate"], batch_first=True, norm_first=True)
        self.blocks = nn.TransformerEncoder(layer, cfg["n_layers"])
        self.norm = nn.LayerNorm(cfg["emb_dim"])
        self.head = nn.Linear(cfg["emb_dim"], cfg["vocab_size"], bias=False)

    def forward(self, idx):
        t = idx.size(1)
        x = self.tok_emb(idx) + self.pos_emb(torch.arange(t, device=idx.device))
        mask = torch.triu(torch.ones(t, t, dtype=torch.bool, device=idx.device), 1)
        return self.head(self.norm(self.blocks(x, mask=mask)))


def calc_loss_batch(inputs, targets, model, device):
    logits = model(inputs.to(device))
    return F.cross_entropy(logits.flatten(0, 1), targets.to(device).flatten())


def main(train_loader, num_epochs=10, device="cuda"):
    model = TinyGPT(CFG).to(device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=5e-4, weight_decay=0.1)
    for epoch in range(num_epochs):
        model.train()
        for inputs, targets in train_loader:
            optimizer.zero_grad()
            loss = calc_loss_batch(inputs, targets, model, device)
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch + 1}: train loss {loss.item():.3f}")

    torch.save(model.state_dict(), "model.pth")
    model = TinyGPT(CFG)
    model.load_state_dict(torch.load("model.pth"), weights_only=True)  # expect: torch-load-unsafe
    return model
