"""Multilabel node classification (PPI-style) with LABOR neighbour sampling,
wrapped in a LightningModule."""
import dgl
import dgl.nn as dglnn
import torch
import torch.nn as nn
import torch.nn.functional as F
import pytorch_lightning as pl
from torchmetrics.classification import MultilabelF1Score


class SAGE(nn.Module):
    def __init__(self, in_feats, n_hidden, n_classes, n_layers=3, dropout=0.5):
        super().__init__()
        dims = [in_feats] + [n_hidden] * (n_layers - 1) + [n_classes]
        self.layers = nn.ModuleList(dglnn.SAGEConv(a, b, "mean") for a, b in zip(dims[:-1], dims[1:]))
        self.dropout = nn.Dropout(dropout)

    def forward(self, blocks, x):
        h = x
        for i, (layer, block) in enumerate(zip(self.layers, blocks)):
            h = layer(block, h)
            if i != len(self.layers) - 1:
                h = self.dropout(F.relu(h))
        return h


class SAGELightning(pl.LightningModule):
    def __init__(self, in_feats, n_hidden, n_classes, lr=1e-3):
        super().__init__()
        self.save_hyperparameters()
        self.module = SAGE(in_feats, n_hidden, n_classes)
        self.loss_fn = nn.BCELoss()
        self.final_activation = nn.Sigmoid()
        self.train_f1 = MultilabelF1Score(n_classes, average="micro")
        self.val_f1 = MultilabelF1Score(n_classes, average="micro")

    def training_step(self, batch, batch_idx):
        input_nodes, output_nodes, mfgs = batch
        batch_inputs = mfgs[0].srcdata["feat"]
        batch_labels = mfgs[-1].dstdata["label"].float()
        batch_pred = self.module(mfgs, batch_inputs)
        loss = self.loss_fn(self.final_activation(batch_pred), batch_labels)  # expect: sigmoid-before-bce
        self.train_f1(torch.sigmoid(batch_pred), batch_labels.int())
        self.log("train_loss", loss, prog_bar=True, batch_size=batch_labels.shape[0])
        self.log("train_f1", self.train_f1, on_epoch=True, batch_size=batch_labels.shape[0])
        return loss

    def validation_step(self, batch, batch_idx):
        input_nodes, output_nodes, mfgs = batch
        batch_pred = self.module(mfgs, mfgs[0].srcdata["feat"])
        batch_labels = mfgs[-1].dstdata["label"]
        self.val_f1(torch.sigmoid(batch_pred), batch_labels.int())
        self.log("val_f1", self.val_f1, on_epoch=True, batch_size=batch_labels.shape[0])

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=self.hparams.lr)


def make_loader(g, nids, fanouts, batch_size, shuffle, device):
    sampler = dgl.dataloading.LaborSampler(fanouts)
    return dgl.dataloading.DataLoader(g, nids, sampler, device=device, batch_size=batch_size,
                                      shuffle=shuffle, drop_last=False, num_workers=0, use_uva=True)
