"""Tacotron decoder stop-token head and training step."""
import torch
import torch.nn as nn


class StopNet(nn.Module):
    def __init__(self, in_features):
        super().__init__()
        self.dropout = nn.Dropout(0.1)
        self.linear = nn.Linear(in_features, 1)
        nn.init.xavier_uniform_(self.linear.weight, gain=nn.init.calculate_gain("linear"))

    def forward(self, inputs):
        return self.linear(self.dropout(inputs))


class L1LossMasked(nn.Module):
    def forward(self, pred, target, lengths):
        mask = (torch.arange(target.size(1), device=target.device)[None, :] < lengths[:, None])
        mask = mask.unsqueeze(2).float()
        return (torch.abs(pred - target) * mask).sum() / (mask.sum() * target.size(2))


def train_step(model, batch, optimizer, criterion, criterion_st, grad_clip=1.0):
    text, text_lens, mel, mel_lens, stop_targets = batch
    optimizer.zero_grad()
    decoder_output, postnet_output, alignments, stop_logits = model(text, text_lens, mel)
    decoder_loss = criterion(decoder_output, mel, mel_lens)
    postnet_loss = criterion(postnet_output, mel, mel_lens)
    stop_loss = criterion_st(torch.sigmoid(stop_logits), stop_targets)  # expect: sigmoid-before-bce-with-logits
    loss = decoder_loss + postnet_loss + stop_loss
    loss.backward()
    grad_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), grad_clip)
    optimizer.step()
    return loss.item(), stop_loss.item(), float(grad_norm)


def setup_criteria():
    criterion = L1LossMasked()
    criterion_st = nn.BCEWithLogitsLoss()
    return criterion, criterion_st
