import torch
import torch.nn.functional as F
from torch.autograd import Variable
from torch.nn.utils import clip_grad_norm_


def evaluate(model, val_iter, vocab_size, pad_idx):
    model.eval()
    total_loss = 0
    for b, batch in enumerate(val_iter):
        src, len_src = batch.src
        trg, len_trg = batch.trg
        src = Variable(src.data.cuda(), volatile=True)  # expect: volatile-variable
        trg = Variable(trg.data.cuda(), volatile=True)
        output = model(src, trg, teacher_forcing_ratio=0.0)
        loss = F.nll_loss(output[1:].view(-1, vocab_size), trg[1:].contiguous().view(-1), ignore_index=pad_idx)
        total_loss += loss.item()
    return total_loss / len(val_iter)


def train(epoch, model, optimizer, train_iter, vocab_size, grad_clip, pad_idx):
    model.train()
    total_loss = 0
    for b, batch in enumerate(train_iter):
        src, len_src = batch.src
        trg, len_trg = batch.trg
        src, trg = src.cuda(), trg.cuda()
        optimizer.zero_grad()
        output = model(src, trg)
        loss = F.nll_loss(output[1:].view(-1, vocab_size), trg[1:].contiguous().view(-1), ignore_index=pad_idx)
        loss.backward()
        clip_grad_norm_(model.parameters(), grad_clip)
        optimizer.step()
        total_loss += loss.item()
        if b % 100 == 0 and b != 0:
            print(f"[{epoch}][{b}] loss {total_loss / 100:.2f}")
            total_loss = 0
