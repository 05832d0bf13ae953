"""Self-critical sequence training (SCST) for image captioning: sampled captions vs. a greedy baseline."""
from collections import OrderedDict

import numpy as np
import torch


def array_to_str(arr):
    out = ""
    for tok in arr:
        out += str(tok) + " "
        if tok == 0:
            break
    return out.strip()


def get_self_critical_reward(model, fc_feats, att_feats, att_masks, data_gts, gen_result, scorer):
    batch_size = gen_result.size(0)
    seq_per_img = batch_size // len(data_gts)

    # greedy decoding gives the baseline reward
    with torch.no_grad():
        greedy_res, _ = model(fc_feats, att_feats, att_masks, mode="sample", opt={"sample_method": "greedy"})  # expect: validation-in-train-mode

    res = OrderedDict()
    gen_result = gen_result.cpu().numpy()
    greedy_res = greedy_res.cpu().numpy()
    for i in range(batch_size):
        res[i] = [array_to_str(gen_result[i])]
    for i in range(len(data_gts)):
        res[batch_size + i] = [array_to_str(greedy_res[i])]
    gts = OrderedDict((i, [array_to_str(g) for g in data_gts[i]]) for i in range(len(data_gts)))
    gts_ = {i: gts[i // seq_per_img] for i in range(batch_size)}
    gts_.update({i + batch_size: gts[i] for i in range(len(data_gts))})

    _, scores = scorer.compute_score(gts_, res)
    scores = np.asarray(scores)
    scores = scores[:batch_size].reshape(len(data_gts), seq_per_img) - scores[batch_size:][:, np.newaxis]
    return np.repeat(scores.reshape(-1)[:, np.newaxis], gen_result.shape[1], 1)


class RewardCriterion(torch.nn.Module):
    def forward(self, logprobs, seq, reward):
        mask = (seq > 0).float()
        mask = torch.cat([mask.new_ones(mask.size(0), 1), mask[:, :-1]], 1)
        output = -logprobs * reward * mask
        return torch.sum(output) / torch.sum(mask)


def scst_step(model, optimizer, fc_feats, att_feats, att_masks, data_gts, scorer, grad_clip=0.1):
    model.train()
    optimizer.zero_grad()
    gen_result, sample_logprobs = model(fc_feats, att_feats, att_masks, mode="sample",
                                        opt={"sample_method": "sample"})
    reward = get_self_critical_reward(model, fc_feats, att_feats, att_masks, data_gts, gen_result, scorer)
    reward = torch.from_numpy(reward).float().to(sample_logprobs.device)
    loss = RewardCriterion()(sample_logprobs, gen_result, reward)
    loss.backward()
    torch.nn.utils.clip_grad_value_(model.parameters(), grad_clip)
    optimizer.step()
    return loss.item(), float(reward[:, 0].mean())
