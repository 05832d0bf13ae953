# Source: https://github.com/wenet-e2e/wekws/pull/73
# Pitfall: the keyword-spotting executor calls optimizer.step() after every backward without
# ever calling optimizer.zero_grad().
# Reproduced in our own words, not the original code.
import torch


class Executor:
    def train(self, model, optimizer, data_loader, device, clip=5.0):
        model.train()
        for batch_idx, (feats, target, lengths) in enumerate(data_loader):
            feats, target = feats.to(device), target.to(device)
            logits = model(feats)
            loss = torch.nn.functional.binary_cross_entropy_with_logits(logits, target)
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), clip)
            optimizer.step()  # expect: gradients-never-cleared
