"""Evaluation pass of a Tacotron trainer: teacher-forced decoding on the dev set."""
import torch
from torch.autograd import Variable
import torch.nn.functional as F


def evaluate(model, loader, use_cuda=True):
    model.eval()
    avg_linear, avg_mel = 0.0, 0.0
    for text_input, text_lengths, magnitude_input, mel_input in loader:
        text_var = Variable(text_input)
        mel_var = Variable(mel_input)
        linear_spec_var = Variable(magnitude_input, volatile=True)  # expect: volatile-variable
        if use_cuda:
            text_var, mel_var, linear_spec_var = text_var.cuda(), mel_var.cuda(), linear_spec_var.cuda()
        with torch.no_grad():
            mel_out, linear_out, alignments = model(text_var, mel_var)
            mel_loss = F.l1_loss(mel_out, mel_var)
            linear_loss = F.l1_loss(linear_out, linear_spec_var)
        avg_linear += linear_loss.item()
        avg_mel += mel_loss.item()
    n = max(len(loader), 1)
    model.train()
    return avg_linear / n, avg_mel / n
