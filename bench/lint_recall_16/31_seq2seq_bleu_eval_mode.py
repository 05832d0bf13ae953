"""Transformer translation: greedy decoding and BLEU on held-out sentence pairs after training."""
import collections
import math

import torch
from torch import nn


def bleu(pred_seq, label_seq, k=2):
    pred_tokens, label_tokens = pred_seq.split(" "), label_seq.split(" ")
    len_pred, len_label = len(pred_tokens), len(label_tokens)
    score = math.exp(min(0, 1 - len_label / max(len_pred, 1)))
    for n in range(1, k + 1):
        num_matches, label_subs = 0, collections.defaultdict(int)
        for i in range(len_label - n + 1):
            label_subs[" ".join(label_tokens[i:i + n])] += 1
        for i in range(len_pred - n + 1):
            if label_subs[" ".join(pred_tokens[i:i + n])] > 0:
                num_matches += 1
                label_subs[" ".join(pred_tokens[i:i + n])] -= 1
        score *= math.pow(num_matches / max(len_pred - n + 1, 1), math.pow(0.5, n))
    return score


class TranslationModel(nn.Module):
    def __init__(self, src_vocab, tgt_vocab, d_model=64, dropout=0.2):
        super().__init__()
        self.src_emb = nn.Embedding(src_vocab, d_model)
        self.tgt_emb = nn.Embedding(tgt_vocab, d_model)
        self.core = nn.Transformer(d_model, 4, 2, 2, 128, dropout=dropout, batch_first=True)
        self.out = nn.Linear(d_model, tgt_vocab)

    def forward(self, src, tgt_in):
        mask = self.core.generate_square_subsequent_mask(tgt_in.shape[1]).to(src.device)
        return self.out(self.core(self.src_emb(src), self.tgt_emb(tgt_in), tgt_mask=mask))


def predict_seq2seq(model, src_tokens, bos_id, eos_id, num_steps, device):
    src = torch.tensor([src_tokens], device=device)
    dec = torch.tensor([[bos_id]], device=device)
    out_ids = []
    for _ in range(num_steps):
        logits = model(src, dec)
        next_id = int(logits[0, -1].argmax())
        if next_id == eos_id:
            break
        out_ids.append(next_id)
        dec = torch.cat([dec, torch.tensor([[next_id]], device=device)], dim=1)
    return out_ids


def evaluate_bleu(model, pairs, src_vocab, tgt_vocab, device, num_steps=10):
    scores = []
    with torch.no_grad():
        for src_sentence, tgt_sentence in pairs:  # expect: validation-in-train-mode
            src_tokens = [src_vocab[w] for w in src_sentence.split()]
            pred_ids = predict_seq2seq(model, src_tokens, tgt_vocab["<bos>"], tgt_vocab["<eos>"], num_steps, device)
            inv = {i: w for w, i in tgt_vocab.items()}
            translation = " ".join(inv[i] for i in pred_ids)
            scores.append(bleu(translation, tgt_sentence, k=2))
    return sum(scores) / max(len(scores), 1)
