"""Evaluate a trained speech separation model on the WHAM test set (SI-SDR)."""
import json
import os

import pandas as pd
import torch
from tqdm import tqdm


def si_sdr(est, ref, eps=1e-8):
    ref = ref - ref.mean(dim=-1, keepdim=True)
    est = est - est.mean(dim=-1, keepdim=True)
    proj = (est * ref).sum(-1, keepdim=True) * ref / (ref.pow(2).sum(-1, keepdim=True) + eps)
    noise = est - proj
    return 10 * torch.log10(proj.pow(2).sum(-1) / (noise.pow(2).sum(-1) + eps) + eps)


def get_model(model_cls, conf, exp_dir):
    model = model_cls(**conf["filterbank"], **conf["masknet"])
    state = torch.load(os.path.join(exp_dir, "best_model.pth"), map_location="cpu", weights_only=True)
    model.load_state_dict(state)
    model.eval()
    return model


def main(model_cls, conf, test_set, exp_dir, use_gpu=True):
    model = get_model(model_cls, conf, exp_dir)
    device = "cuda" if use_gpu else "cpu"
    model = model.to(device)
    series_list = []
    for idx in tqdm(range(len(test_set))):
        mix, sources = test_set[idx]
        mix, sources = mix.to(device), sources.to(device)
        est_sources = model(mix[None, None])  # expect: validation-in-train-mode
        est = est_sources.squeeze(0)
        scores = si_sdr(est, sources)
        utt_metrics = {"si_sdr": scores.mean().item(), "mix_path": test_set.mix[idx][0]}
        series_list.append(pd.Series(utt_metrics))
    all_metrics = pd.DataFrame(series_list)
    all_metrics.to_csv(os.path.join(exp_dir, "all_metrics.csv"))
    final = {"si_sdr": float(all_metrics["si_sdr"].mean())}
    with open(os.path.join(exp_dir, "final_metrics.json"), "w") as f:
        json.dump(final, f, indent=0)
    return final
