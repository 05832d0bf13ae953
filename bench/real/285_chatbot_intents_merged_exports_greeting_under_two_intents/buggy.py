"""Chatbot intent classifier (bag-of-words EmbeddingBag + linear layer over 6 intents, Adam,
mini-batches sliced by hand from a shuffled index) trained on NLU examples merged from two
assistants' exports. One export files time-of-day salutations ("good afternoon", "good evening
there", ...) under `greet`, the other under `goodbye`, and the merge keeps both: the very same
utterance now appears with two different intents. The classifier can only split its belief
between the two labels on those messages, so its loss on correctly labelled held-out messages stays
far above what the same model reaches on a consistent training set.

Source: https://github.com/RasaHQ/rasa/pull/12182 (remove duplicate "good afternoon" example)
Report: "UserWarning: The example 'good afternoon' was found labeled with multiple different intents
in the training data. Each annotated message should only appear with one intent. You should fix that
conflict The example is labeled with: goodbye, greet." Reproduced with 3,000 synthetic utterances
built from intent-specific words, where about a third of the greet/goodbye traffic is a time-of-day
salutation that the merged export lists once under each intent; 12 epochs of Adam lr 0.02, batch
64. The printed loss is the cross-entropy on 1,000 held-out utterances labelled as the assistant
should answer them (salutations are greetings), `acc` the held-out accuracy.

expect: label-conflict
symptom: final-loss-ratio 2
batch: 17
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

INTENTS = ["greet", "goodbye", "affirm", "deny", "order_pizza", "track_order"]
N_WORDS, WORDS_PER_INTENT, N_FILLER = 200, 12, 60
intent_words = torch.randperm(N_WORDS - N_FILLER).view(-1)[: len(INTENTS) * WORDS_PER_INTENT]
intent_words = intent_words.view(len(INTENTS), WORDS_PER_INTENT) + N_FILLER
salutations = torch.randint(0, N_FILLER, (40, 3))


def utterance(intent):
    if intent in (0, 1) and torch.rand(()) < 0.35:
        return salutations[torch.randint(0, 40, ())].tolist()
    n = int(torch.randint(3, 7, ()))
    words = intent_words[intent, torch.randint(0, WORDS_PER_INTENT, (2,))].tolist()
    return words + torch.randint(0, N_FILLER, (n - 2,)).tolist()


def is_salutation(words):
    return len(words) == 3 and all(w < N_FILLER for w in words)


def build(n):
    texts, labels = [], []
    for _ in range(n):
        y = int(torch.randint(0, len(INTENTS), ()))
        texts.append(utterance(y))
        labels.append(0 if is_salutation(texts[-1]) else y)
    return texts, labels


def merge_exports(texts, labels):
    merged_t, merged_y = list(texts), list(labels)
    for t, y in zip(texts, labels):
        if y == 0 and is_salutation(t):
            merged_t.append(t)
            merged_y.append(1)
    return merged_t, merged_y


def pack(texts):
    flat = torch.tensor([w for t in texts for w in t])
    offsets = torch.tensor([0] + [len(t) for t in texts[:-1]]).cumsum(0)
    return flat, offsets


train_t, train_y = merge_exports(*build(3000))
test_t, test_y = build(1000)
test_flat, test_off = pack(test_t)
test_y = torch.tensor(test_y)

model = nn.ModuleDict({"bag": nn.EmbeddingBag(N_WORDS, 32, mode="mean"),
                       "out": nn.Linear(32, len(INTENTS))})
opt = torch.optim.Adam(model.parameters(), lr=0.02)


def forward(flat, offsets):
    return model["out"](model["bag"](flat, offsets))


for epoch in range(12):
    order = torch.randperm(len(train_t)).tolist()
    total = 0.0
    for i in range(0, len(order), 64):
        rows = order[i:i + 64]
        flat, offsets = pack([train_t[r] for r in rows])
        y = torch.tensor([train_y[r] for r in rows])
        loss = F.cross_entropy(forward(flat, offsets), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item() * len(rows)
    with torch.no_grad():
        test_logits = forward(test_flat, test_off)
        test_loss = F.cross_entropy(test_logits, test_y).item()
    print(f"epoch {epoch + 1} train {total / len(order):.4f} test {test_loss:.4f}")

acc = (test_logits.argmax(1) == test_y).float().mean().item()
print(f"final_loss={test_loss:.6g} acc={acc:.4f}")
