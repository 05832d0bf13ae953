"""LoRA fine-tuning of a small text classifier: a bag-of-embeddings + two-layer MLP encoder is first pretrained on a 6-way topic task, then frozen and adapted to a new 6-way intent task by training rank-8 LoRA factors (A, B) added to both hidden linear layers and a fresh output head. The model is built the way the original finetuning script did it -- inside an "empty init" context that skips the layers' own initializers to save time, then loading the pretrained checkpoint with strict=False -- so the LoRA factors, which are not in the checkpoint, are left as the zero-filled buffers the context allocated. With A = 0 and B = 0 the LoRA update B @ A has zero gradient with respect to both factors (dL/dB = g (A x)^T = 0, dL/dA = B^T g x^T = 0): the adapters never move and only the output head learns, on top of features made for the old task.

Source: https://github.com/Lightning-AI/lit-llama/commit/1f61627ce8ea69e86cab62b9f6b6c0a8cf97542f (Fix weight initialization in LoRA and Adapter finetuning (#117))
Report: the fix replaces `with EmptyInitOnDevice(device=fabric.device, dtype=torch.bfloat16): with lora(...): model =
LLaMA(config)` followed by `model.load_state_dict(checkpoint, strict=False)` ("strict=False because missing keys due
to LoRA weights not contained in checkpoint state") by constructing the model normally, so the LoRA weights get
their real initialization instead of staying uninitialized. Reproduced with synthetic token sequences (vocabulary of
300, 12 tokens each, topic and intent decided by disjoint keyword sets) and an empty-init context that allocates
zero-filled parameters; the fix builds the model with its initializers and then loads the checkpoint. The printed
loss is the held-out intent cross-entropy, `acc` the held-out intent accuracy.

expect: bad-init
symptom: acc-below 0.7
batch: 27
"""
import argparse
import contextlib
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

VOCAB, LEN, DIM, HID, RANK = 300, 12, 32, 64, 8
topic_words = torch.randperm(VOCAB)[:120].view(6, 20)
intent_words = torch.randperm(VOCAB)[:96].view(6, 16)


def make_texts(n, keywords):
    y = torch.randint(0, 6, (n,))
    tokens = torch.randint(0, VOCAB, (n, LEN))
    k = keywords.size(1)
    for j in range(6):
        tokens[:, j * 2] = keywords[y, torch.randint(0, k, (n,))]
    return tokens, y


@contextlib.contextmanager
def empty_init():
    """Skip parameter initializers while building a model (weights come from a checkpoint)."""
    saved = nn.Linear.reset_parameters, nn.Embedding.reset_parameters, LoRALinear.reset_lora
    nn.Linear.reset_parameters = lambda self: nn.init.zeros_(self.weight)
    nn.Embedding.reset_parameters = lambda self: nn.init.zeros_(self.weight)
    LoRALinear.reset_lora = lambda self: (nn.init.zeros_(self.lora_A), nn.init.zeros_(self.lora_B))
    try:
        yield
    finally:
        nn.Linear.reset_parameters, nn.Embedding.reset_parameters, LoRALinear.reset_lora = saved


class LoRALinear(nn.Linear):
    def __init__(self, fan_in, fan_out, rank=0):
        super().__init__(fan_in, fan_out)
        self.rank = rank
        if rank:
            self.lora_A = nn.Parameter(torch.empty(rank, fan_in))
            self.lora_B = nn.Parameter(torch.empty(fan_out, rank))
            self.reset_lora()

    def reset_lora(self):
        nn.init.kaiming_uniform_(self.lora_A, a=math.sqrt(5))
        nn.init.zeros_(self.lora_B)

    def forward(self, x):
        out = super().forward(x)
        if self.rank:
            out = out + (x @ self.lora_A.T @ self.lora_B.T) * (8.0 / self.rank)
        return out


class Classifier(nn.Module):
    def __init__(self, rank=0):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, DIM)
        self.fc1 = LoRALinear(DIM, HID, rank)
        self.fc2 = LoRALinear(HID, HID, rank)
        self.head = nn.Linear(HID, 6)

    def forward(self, tokens):
        h = self.emb(tokens).mean(1)
        return self.head(F.relu(self.fc2(F.relu(self.fc1(h)))))


def train(model, params, tokens, y, epochs, lr):
    opt = torch.optim.Adam(params, lr=lr)
    for epoch in range(epochs):
        perm = torch.randperm(len(y))
        for i in range(0, len(y), 64):
            idx = perm[i:i + 64]
            loss = F.cross_entropy(model(tokens[idx]), y[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
    return loss.item()


# 1) pretrain the base encoder on the topic task
base = Classifier()
tok_a, y_a = make_texts(3000, topic_words)
print(f"pretrain loss {train(base, base.parameters(), tok_a, y_a, 6, 3e-3):.4f}")
checkpoint = {k: v for k, v in base.state_dict().items() if not k.startswith("head")}

# 2) LoRA-adapt to the intent task
with empty_init():
    model = Classifier(rank=RANK)
model.load_state_dict(checkpoint, strict=False)
for name, p in model.named_parameters():
    p.requires_grad_("lora_" in name or name.startswith("head"))
nn.init.normal_(model.head.weight, std=0.02)
nn.init.zeros_(model.head.bias)

tok_b, y_b = make_texts(1500, intent_words)
tok_te, y_te = make_texts(600, intent_words)
trainable = [p for p in model.parameters() if p.requires_grad]
for epoch in range(7):
    last = train(model, trainable, tok_b, y_b, 1, 1e-2)
    print(f"lora epoch {epoch} loss {last:.4f}")

with torch.no_grad():
    logits = model(tok_te)
    test_loss = F.cross_entropy(logits, y_te).item()
    acc = (logits.argmax(1) == y_te).float().mean().item()
print(f"final_loss={test_loss:.6g} acc={acc:.4f}")
