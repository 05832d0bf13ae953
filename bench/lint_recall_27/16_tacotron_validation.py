"""Tacotron training script: one validation pass over the dev set every epoch."""
import time
import torch


def evaluate(model, criterion, data_loader, current_step, n_priority_freq, use_cuda=True):
    model = model.eval()
    epoch_time = 0
    avg_linear_loss = 0
    avg_mel_loss = 0
    print(" | > Validation")
    for num_iter, data in enumerate(data_loader):
        start_time = time.time()
        text_input, text_lengths, linear_input, mel_input, mel_lengths = data[:5]
        if use_cuda:
            text_input = text_input.cuda()
            mel_input = mel_input.cuda()
            mel_lengths = mel_lengths.cuda()
            linear_input = linear_input.cuda()

        mel_output, linear_output, alignments = model.forward(text_input, mel_input)  # expect: validation-in-train-mode

        mel_loss = criterion(mel_output, mel_input, mel_lengths)
        linear_loss = 0.5 * criterion(linear_output, linear_input, mel_lengths) + 0.5 * criterion(
            linear_output[:, :, :n_priority_freq], linear_input[:, :, :n_priority_freq], mel_lengths)
        epoch_time += time.time() - start_time
        avg_linear_loss += linear_loss.item()
        avg_mel_loss += mel_loss.item()

    n = max(len(data_loader), 1)
    print(f" | > step {current_step} val linear {avg_linear_loss / n:.5f} mel {avg_mel_loss / n:.5f} time {epoch_time:.1f}s")
    return avg_linear_loss / n


def train(model, criterion, data_loader, optimizer, epoch, n_priority_freq, grad_clip=1.0):
    model = model.train()
    for num_iter, data in enumerate(data_loader):
        text_input, text_lengths, linear_input, mel_input, mel_lengths = [t.cuda() for t in data[:5]]
        optimizer.zero_grad()
        mel_output, linear_output, alignments = model.forward(text_input, mel_input)
        mel_loss = criterion(mel_output, mel_input, mel_lengths)
        linear_loss = criterion(linear_output, linear_input, mel_lengths)
        loss = mel_loss + linear_loss
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), grad_clip)
        optimizer.step()
    return loss.item()
