"""Tacotron training loop with an evaluation pass on held-out utterances."""
import torch
import torch.nn as nn
from torch.autograd import Variable


def train(model, criterion, optimizer, loader, epoch, grad_clip=1.0):
    model.train()
    avg_linear, avg_mel = 0.0, 0.0
    for step, (text, text_lens, linear, mel) in enumerate(loader):
        text, linear, mel = text.cuda(), linear.cuda(), mel.cuda()
        optimizer.zero_grad()
        mel_out, linear_out, alignments = model(text, mel)
        mel_loss = criterion(mel_out, mel)
        linear_loss = 0.5 * criterion(linear_out, linear) + 0.5 * criterion(linear_out[:, :, :200], linear[:, :, :200])
        loss = mel_loss + linear_loss
        loss.backward()
        nn.utils.clip_grad_norm_(model.parameters(), grad_clip)
        optimizer.step()
        avg_linear += linear_loss.item()
        avg_mel += mel_loss.item()
    n = len(loader)
    print(f"epoch {epoch}: linear {avg_linear / n:.4f} mel {avg_mel / n:.4f}")


def evaluate(model, criterion, loader):
    model.eval()
    avg_linear, avg_mel = 0.0, 0.0
    for text, text_lens, linear, mel in loader:
        text_var = Variable(text, volatile=True).cuda()  # expect: volatile-variable
        mel_var = mel.cuda()
        linear_var = linear.cuda()
        mel_out, linear_out, alignments = model(text_var, mel_var)
        mel_loss = criterion(mel_out, mel_var)
        linear_loss = criterion(linear_out, linear_var)
        avg_linear += linear_loss.item()
        avg_mel += mel_loss.item()
    model.train()
    n = max(len(loader), 1)
    return avg_linear / n, avg_mel / n


def main(model, train_loader, val_loader, epochs=1000):
    model = model.cuda()
    criterion = nn.L1Loss()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    best = float("inf")
    for epoch in range(epochs):
        train(model, criterion, optimizer, train_loader, epoch)
        lin, mel = evaluate(model, criterion, val_loader)
        if lin + mel < best:
            best = lin + mel
            torch.save({"model": model.state_dict(), "epoch": epoch}, "best_model.pth.tar")
