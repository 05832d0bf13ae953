# Source: https://github.com/nayeon7lee/bert-summarization/issues/7
# Pitfall: the training step builds its refinement output in a helper that runs under
# torch.no_grad(), so that part of the loss contributes no gradient.
# Reproduced in our own words, not the original code.
import torch
import torch.nn.functional as F


class Summarizer:
    def __init__(self, model, optimizer):
        self.model, self.optimizer = model, optimizer

    def generate_refinement_output(self, enc, draft):
        with torch.no_grad():  # expect: backward-without-graph
            return self.model.refine(enc, draft)

    def train_one_batch(self, batch):
        self.optimizer.zero_grad()
        enc = self.model.encode(batch["src"])
        draft_logits = self.model.decode(enc, batch["tgt_in"])
        refine_logits = self.generate_refinement_output(enc, draft_logits.argmax(-1))
        loss = F.cross_entropy(draft_logits.transpose(1, 2), batch["tgt"]) + \
            F.cross_entropy(refine_logits.transpose(1, 2), batch["tgt"])
        loss.backward()
        self.optimizer.step()
