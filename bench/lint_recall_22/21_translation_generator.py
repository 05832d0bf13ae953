"""Batched beam-search decoding over a test set for a fairseq-style translation model."""
import torch
from torch.autograd import Variable


def make_eval_variable(sample, cuda=False):
    """Wrap every tensor of a (nested) sample in an inference-only Variable, optionally on the GPU."""
    if isinstance(sample, dict):
        return {k: make_eval_variable(v, cuda) for k, v in sample.items()}
    if isinstance(sample, list):
        return [make_eval_variable(v, cuda) for v in sample]
    if torch.is_tensor(sample):
        if cuda:
            sample = sample.cuda()
        return Variable(sample, volatile=True)  # expect: volatile-variable
    return sample


class SequenceGenerator:
    def __init__(self, models, beam_size=5, maxlen=200, len_penalty=1.0):
        self.models = models
        self.beam_size = beam_size
        self.maxlen = maxlen
        self.len_penalty = len_penalty

    def generate(self, src_tokens, src_lengths, beam_size=None, maxlen=None):
        beam_size = beam_size or self.beam_size
        maxlen = maxlen or self.maxlen
        model = self.models[0]
        encoder_out = model.encoder(src_tokens, src_lengths)
        return model.decoder.beam_search(encoder_out, beam_size=beam_size, maxlen=maxlen,
                                         len_penalty=self.len_penalty)

    def generate_batched_itr(self, data_itr, beam_size=None, maxlen_a=0.0, maxlen_b=None,
                             cuda=False, timer=None):
        for model in self.models:
            model.eval()
        if maxlen_b is None:
            maxlen_b = self.maxlen
        for sample in data_itr:
            s = make_eval_variable(sample, cuda=cuda)
            net_input = s["net_input"]
            srclen = net_input["src_tokens"].size(1)
            if timer is not None:
                timer.start()
            hypos = self.generate(net_input["src_tokens"], net_input["src_lengths"],
                                  beam_size=beam_size, maxlen=int(maxlen_a * srclen + maxlen_b))
            if timer is not None:
                timer.stop(s["ntokens"])
            for i, sample_id in enumerate(s["id"].data):
                src = net_input["src_tokens"].data[i, :]
                ref = s["target"].data[i, :]
                yield sample_id, src, ref, hypos[i]
