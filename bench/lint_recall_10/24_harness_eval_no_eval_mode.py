# Source: https://github.com/meta-pytorch/torchtune/pull/1049
# Pitfall: the evaluation recipe scores the fine-tuned model under inference mode but never calls
#   model.eval(), so any dropout in the checkpoint stays active and the benchmark numbers are noisy and low.
# Reproduced in our own words, not the original code.
import torch
import torch.nn.functional as F


class LoglikelihoodScorer:
    def __init__(self, model, tokenizer, device="cuda", max_len=2048):
        self.model = model.to(device)
        self.tokenizer = tokenizer
        self.device = device
        self.max_len = max_len

    def _encode(self, context, continuation):
        ctx = self.tokenizer.encode(context, add_bos=True, add_eos=False)
        cont = self.tokenizer.encode(continuation, add_bos=False, add_eos=False)
        ids = (ctx + cont)[-self.max_len:]
        return torch.tensor(ids, device=self.device).unsqueeze(0), len(cont)

    @torch.inference_mode()
    def loglikelihood(self, requests):
        results = []
        for context, continuation in requests:
            ids, n_cont = self._encode(context, continuation)
            logits = self.model(ids)  # expect: validation-in-train-mode
            logp = F.log_softmax(logits[:, :-1].float(), dim=-1)
            targets = ids[:, 1:]
            tok_logp = logp.gather(-1, targets.unsqueeze(-1)).squeeze(-1)[:, -n_cont:]
            greedy = logp[:, -n_cont:].argmax(-1).eq(targets[:, -n_cont:]).all().item()
            results.append((tok_logp.sum().item(), bool(greedy)))
        return results


def run_eval(model, tokenizer, tasks):
    scorer = LoglikelihoodScorer(model, tokenizer)
    report = {}
    for name, requests in tasks.items():
        scores = scorer.loglikelihood(requests)
        report[name] = sum(int(g) for _, g in scores) / max(len(scores), 1)
    return report
