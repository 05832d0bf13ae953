# Source: https://github.com/pytorch/rl/pull/1328
# Pitfall: the pairwise reward loss takes torch.log of a torch.sigmoid in two steps; once the
# rejected reply outscores the chosen one by ~90, sigmoid underflows to 0 and the loss is inf.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn


class TokenRewardModel(nn.Module):
    def __init__(self, backbone, hidden_size):
        super().__init__()
        self.backbone = backbone
        self.score = nn.Linear(hidden_size, 1, bias=False)

    def forward(self, input_ids, attention_mask):
        hidden = self.backbone(input_ids=input_ids, attention_mask=attention_mask).last_hidden_state
        return self.score(hidden).squeeze(-1)


def ranking_loss(model, good_ids, bad_ids, good_mask, bad_mask, pad_id):
    good_scores = model(good_ids, good_mask)
    bad_scores = model(bad_ids, bad_mask)
    total = 0.0
    n = good_ids.shape[0]
    for i in range(n):
        good_end = int((good_ids[i] != pad_id).sum())
        bad_end = int((bad_ids[i] != pad_id).sum())
        stop = max(good_end, bad_end)
        differs = (good_ids[i] != bad_ids[i]).nonzero()
        start = int(differs[0]) if len(differs) else stop - 1
        diff = good_scores[i, start:stop] - bad_scores[i, start:stop]
        total = total + (-torch.log(torch.sigmoid(diff))).mean()  # expect: log-of-softmax
    return total / n


def fit(model, loader, pad_id, epochs=1, lr=9e-6):
    opt = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=lr)
    model.train()
    for epoch in range(epochs):
        running = 0.0
        for k, batch in enumerate(loader):
            opt.zero_grad(set_to_none=True)
            loss = ranking_loss(model, batch["chosen_ids"], batch["rejected_ids"],
                                batch["chosen_mask"], batch["rejected_mask"], pad_id)
            loss.backward()
            opt.step()
            running += loss.item()
            if (k + 1) % 50 == 0:
                print(f"epoch {epoch} step {k + 1}: {running / 50:.4f}")
                running = 0.0
    return model
