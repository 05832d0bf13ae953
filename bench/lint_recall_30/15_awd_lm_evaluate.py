"""AWD-LSTM language model: evaluation over a BPTT-batched corpus."""
import math
import torch
import torch.nn as nn
from torch.autograd import Variable


def repackage_hidden(h):
    if isinstance(h, torch.Tensor):
        return h.detach()
    return tuple(repackage_hidden(v) for v in h)


def evaluate(model, criterion, data_source, sampler, batch_size, ntokens):
    model.eval()
    total_loss = 0.0
    hidden = model.init_hidden(batch_size)
    for source_idx, target_idx in sampler:
        data = Variable(torch.stack([data_source[i] for i in source_idx]), volatile=True)  # expect: volatile-variable
        targets = torch.stack([data_source[i] for i in target_idx]).view(-1)
        with torch.no_grad():
            output, hidden = model(data, hidden)
        total_loss += len(data) * criterion(output.view(-1, ntokens), targets).item()
        hidden = repackage_hidden(hidden)
    return total_loss / len(data_source)


def report(model, data, sampler, batch_size, ntokens):
    criterion = nn.CrossEntropyLoss()
    val_loss = evaluate(model, criterion, data, sampler, batch_size, ntokens)
    model.train()
    print(f"valid loss {val_loss:5.2f} | valid ppl {math.exp(val_loss):8.2f}")
    return val_loss
