"""Show-attend-tell style captioning: one epoch of validation with BLEU."""
import torch
from torch.nn.utils.rnn import pack_padded_sequence
from nltk.translate.bleu_score import corpus_bleu

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


def validate(val_loader, encoder, decoder, criterion, word_map):
    decoder.eval()
    if encoder is not None:
        encoder.eval()
    references, hypotheses = [], []
    losses = []
    for imgs, caps, caplens, allcaps in val_loader:
        imgs, caps, caplens = imgs.to(device), caps.to(device), caplens.to(device)
        if encoder is not None:
            imgs = encoder(imgs)
        scores, caps_sorted, decode_lengths, alphas, sort_ind = decoder(imgs, caps, caplens)  # expect: validation-in-train-mode
        targets = caps_sorted[:, 1:]
        scores_copy = scores.clone()
        scores = pack_padded_sequence(scores, decode_lengths, batch_first=True).data
        targets = pack_padded_sequence(targets, decode_lengths, batch_first=True).data
        loss = criterion(scores, targets) + 1.0 * ((1.0 - alphas.sum(dim=1)) ** 2).mean()
        losses.append(loss.item())
        allcaps = allcaps[sort_ind]
        for j in range(allcaps.shape[0]):
            img_caps = allcaps[j].tolist()
            refs = [[w for w in c if w not in {word_map["<start>"], word_map["<pad>"]}] for c in img_caps]
            references.append(refs)
        _, preds = torch.max(scores_copy, dim=2)
        preds = preds.tolist()
        for j, p in enumerate(preds):
            hypotheses.append(p[: decode_lengths[j]])
    decoder.train()
    if encoder is not None:
        encoder.train()
    return sum(losses) / len(losses), corpus_bleu(references, hypotheses)
