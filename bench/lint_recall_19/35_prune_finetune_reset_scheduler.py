"""Pruning scheduler: each iteration fine-tunes the model, generates new masks
from the fine-tuned weights, then resets the weights to the pre-finetune
checkpoint before applying the masks (finetune -> mask -> reset -> evaluate)."""
import torch
import torch.nn.functional as F


def l1_masks(model, sparsity):
    masks = {}
    for name, module in model.named_modules():
        if isinstance(module, (torch.nn.Conv2d, torch.nn.Linear)):
            w = module.weight.detach().abs().flatten()
            k = max(1, int(w.numel() * sparsity))
            threshold = w.kthvalue(k).values
            masks[name] = (module.weight.detach().abs() > threshold).float()
    return masks


def apply_masks(model, masks):
    with torch.no_grad():
        for name, module in model.named_modules():
            if name in masks:
                module.weight.mul_(masks[name])


def finetune(model, loader, epochs=1, lr=1e-3, device="cuda"):
    optimizer = torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9)
    model.train()
    for _ in range(epochs):
        for x, y in loader:
            x, y = x.to(device), y.to(device)
            optimizer.zero_grad()
            F.cross_entropy(model(x), y).backward()
            optimizer.step()


@torch.no_grad()
def evaluate(model, loader, device="cuda"):
    model.eval()
    hits = total = 0
    for x, y in loader:
        hits += (model(x.to(device)).argmax(1).cpu() == y).sum().item()
        total += y.numel()
    return hits / total


def pruning_one_step_reset_weight(model, sparsity, train_loader, test_loader):
    checkpoint = model.state_dict()  # expect: state-dict-not-copied
    finetune(model, train_loader)
    masks = l1_masks(model, sparsity)
    model.load_state_dict(checkpoint)
    apply_masks(model, masks)
    return masks, evaluate(model, test_loader)


def run(model, train_loader, test_loader, schedule=(0.2, 0.4, 0.6, 0.8)):
    for sparsity in schedule:
        masks, acc = pruning_one_step_reset_weight(model, sparsity, train_loader, test_loader)
        print(f"sparsity {sparsity:.1f}: accuracy {acc:.4f}")
