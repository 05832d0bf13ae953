"""Pointer-less seq2seq summariser, teacher forcing over the target sequence."""
import random
import torch


def train_epoch(train_iter, criterion, model, optimizer, teacher_forcing=0.5, device="cuda"):
    model.train()
    epoch_loss_train = 0.0
    for batch in train_iter:
        src = batch.article.to(device)
        tgt = batch.summary.to(device)
        optimizer.zero_grad()
        enc_out, hidden = model.encoder(src)
        dec_input = tgt[:, 0]
        batch_loss_train = 0
        for t in range(1, tgt.size(1)):
            logits, hidden = model.decoder(dec_input, hidden, enc_out)
            batch_loss_train += criterion(logits, tgt[:, t])
            use_tf = random.random() < teacher_forcing
            dec_input = tgt[:, t] if use_tf else logits.argmax(dim=-1)
        batch_loss_train.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
        epoch_loss_train += batch_loss_train  # expect: running-loss-keeps-graph
    return epoch_loss_train / len(train_iter)


def evaluate(test_iter, criterion, model, device="cuda"):
    model.eval()
    total = 0.0
    with torch.no_grad():
        for batch in test_iter:
            src, tgt = batch.article.to(device), batch.summary.to(device)
            enc_out, hidden = model.encoder(src)
            dec_input = tgt[:, 0]
            for t in range(1, tgt.size(1)):
                logits, hidden = model.decoder(dec_input, hidden, enc_out)
                total += criterion(logits, tgt[:, t]).item()
                dec_input = logits.argmax(dim=-1)
    model.train()
    return total / len(test_iter)
