"""Multi-task molecular regression with missing targets: masked loss, class weights."""
import torch
from torch import nn


def train(model, data_loader, loss_func, optimizer, scheduler, device):
    model.train()
    loss_sum, iter_count = 0.0, 0
    for mol_batch, features_batch, target_batch in data_loader:
        mask = torch.tensor([[x is not None for x in tb] for tb in target_batch], dtype=torch.float)
        targets = torch.tensor([[0.0 if x is None else x for x in tb] for tb in target_batch])

        model.zero_grad()
        preds = model(mol_batch.to(device), features_batch.to(device))

        mask.to(preds.device)  # expect: tensor-op-result-discarded
        targets.to(preds.device)  # expect: tensor-op-result-discarded
        class_weights = torch.ones(targets.shape, device=preds.device)

        loss = loss_func(preds, targets) * class_weights * mask
        loss = loss.sum() / mask.sum().clamp(min=1.0)
        loss.backward()
        optimizer.step()
        scheduler.step()

        loss_sum += loss.item()
        iter_count += 1
    return loss_sum / max(iter_count, 1)


if __name__ == "__main__":
    net = nn.Linear(8, 2)

    class Wrapper(nn.Module):
        def __init__(self):
            super().__init__()
            self.net = net

        def forward(self, mols, feats):
            return self.net(mols + feats)

    model = Wrapper()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    sched = torch.optim.lr_scheduler.StepLR(opt, step_size=10)
    loader = [(torch.randn(4, 8), torch.randn(4, 8), [[1.0, None], [0.5, 0.2], [None, 1.0], [0.0, 0.0]])]
    print(train(model, loader, nn.MSELoss(reduction="none"), opt, sched, "cpu"))
