"""Molecular property regression with a GIN-style graph network; keeps the best-validation weights in memory."""
import numpy as np
import torch
import torch.nn as nn
from torch_geometric.loader import DataLoader
from torch_geometric.nn import GINConv, global_mean_pool


class GNN(nn.Module):
    def __init__(self, in_dim, hidden=128, num_layers=4, num_tasks=1):
        super().__init__()
        self.convs = nn.ModuleList()
        for i in range(num_layers):
            mlp = nn.Sequential(nn.Linear(in_dim if i == 0 else hidden, hidden), nn.ReLU(), nn.Linear(hidden, hidden))
            self.convs.append(GINConv(mlp))
        self.head = nn.Linear(hidden, num_tasks)

    def forward(self, data):
        h = data.x
        for conv in self.convs:
            h = torch.relu(conv(h, data.edge_index))
        return self.head(global_mean_pool(h, data.batch))


class GNNMolecularPredictor:
    def __init__(self, in_dim, epochs=200, patience=30, lr=1e-3, batch_size=128, device="cuda"):
        self.model = GNN(in_dim).to(device)
        self.epochs, self.patience = epochs, patience
        self.lr, self.batch_size, self.device = lr, batch_size, device
        self.loss_fn = nn.L1Loss()

    def _train_epoch(self, loader, optimizer):
        self.model.train()
        losses = []
        for batch in loader:
            batch = batch.to(self.device)
            optimizer.zero_grad()
            loss = self.loss_fn(self.model(batch).view(-1), batch.y.view(-1))
            loss.backward()
            optimizer.step()
            losses.append(loss.item())
        return float(np.mean(losses))

    @torch.no_grad()
    def _evaluation_epoch(self, loader):
        self.model.eval()
        errs = [self.loss_fn(self.model(b.to(self.device)).view(-1), b.y.view(-1)).item() for b in loader]
        return float(np.mean(errs))

    def fit(self, train_set, val_set):
        train_loader = DataLoader(train_set, batch_size=self.batch_size, shuffle=True)
        val_loader = DataLoader(val_set, batch_size=self.batch_size, shuffle=False)
        optimizer = torch.optim.Adam(self.model.parameters(), lr=self.lr)
        scheduler = torch.optim.lr_scheduler.ReduceLROnPlateau(optimizer, factor=0.5, patience=10)
        best_loss, best_state_dict, cnt_wait = float("inf"), None, 0
        for epoch in range(self.epochs):
            train_loss = self._train_epoch(train_loader, optimizer)
            val_loss = self._evaluation_epoch(val_loader)
            scheduler.step(val_loss)
            if val_loss < best_loss:
                best_loss = val_loss
                best_state_dict = self.model.state_dict()  # expect: state-dict-not-copied
                cnt_wait = 0
            else:
                cnt_wait += 1
                if cnt_wait > self.patience:
                    break
            print(f"epoch {epoch}: train {train_loss:.4f} val {val_loss:.4f}")
        if best_state_dict is not None:
            self.model.load_state_dict(best_state_dict)
        return self
