# Source: https://github.com/SeanNaren/deepspeech.pytorch/pull/22
# Pitfall: After each training epoch the word-error-rate test loop feeds the acoustic model in whatever
# mode training left it in; without model.eval() dropout corrupts the test transcripts.
# Reproduced in our own words, not the original code.
import torch


def evaluate_wer(model, decoder, test_loader, device):
    total_wer, n_utts = 0.0, 0
    with torch.no_grad():
        for spect, targets, input_sizes, target_sizes in test_loader:
            spect = spect.to(device)
            out = model(spect)  # expect: validation-in-train-mode
            out = out.transpose(0, 1)
            transcripts = decoder.decode(out, input_sizes)
            references = decoder.convert_to_strings(targets, target_sizes)
            for hyp, ref in zip(transcripts, references):
                total_wer += decoder.wer(hyp, ref) / max(len(ref.split()), 1)
                n_utts += 1
    return 100.0 * total_wer / max(n_utts, 1)


def train(model, decoder, train_loader, test_loader, criterion, optimizer, epochs, device):
    for epoch in range(epochs):
        model.train()
        for spect, targets, input_sizes, target_sizes in train_loader:
            spect = spect.to(device)
            optimizer.zero_grad()
            out = model(spect).transpose(0, 1).log_softmax(-1)
            loss = criterion(out, targets, input_sizes, target_sizes)
            loss.backward()
            optimizer.step()
        print(epoch, evaluate_wer(model, decoder, test_loader, device))
