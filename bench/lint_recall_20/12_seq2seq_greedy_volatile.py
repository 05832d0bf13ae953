"""Greedy decoding for a convolutional seq2seq translation model."""
import torch
from torch.autograd import Variable


class GreedyGenerator:
    def __init__(self, model, tgt_dict, maxlen=200):
        self.model = model
        self.pad = tgt_dict.pad()
        self.eos = tgt_dict.eos()
        self.maxlen = maxlen

    def generate_batched_itr(self, data_itr, cuda=False):
        for sample in data_itr:
            src_tokens = sample["net_input"]["src_tokens"]
            src_lengths = sample["net_input"]["src_lengths"]
            if cuda:
                src_tokens = src_tokens.cuda()
                src_lengths = src_lengths.cuda()
            hypos = self.generate(src_tokens, src_lengths)
            for i, sid in enumerate(sample["id"].tolist()):
                yield sid, hypos[i]

    def generate(self, src_tokens, src_lengths):
        self.model.eval()
        src_tokens = Variable(src_tokens, volatile=True)  # expect: volatile-variable
        encoder_out = self.model.encoder(src_tokens, src_lengths)
        bsz = src_tokens.size(0)
        tokens = src_tokens.new_full((bsz, 1), self.eos)
        finished = torch.zeros(bsz, dtype=torch.bool, device=src_tokens.device)
        for _ in range(self.maxlen):
            logits, _ = self.model.decoder(tokens, encoder_out)
            next_tok = logits[:, -1, :].argmax(dim=-1)
            next_tok = next_tok.masked_fill(finished, self.pad)
            tokens = torch.cat([tokens, next_tok.unsqueeze(1)], dim=1)
            finished |= next_tok == self.eos
            if finished.all():
                break
        return [t[1:].tolist() for t in tokens]
