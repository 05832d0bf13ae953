"""Evaluating a return-forecasting model on a stock universe after a feature-based instrument filter."""
import numpy as np
import pandas as pd
import torch


class ExpressionFilter:
    def __init__(self, feature, threshold, keep_missing=False):
        self.feature = feature
        self.threshold = threshold
        self.keep_missing = keep_missing

    def __call__(self, frame: pd.DataFrame) -> pd.Series:
        mask = {}
        for inst, value in frame[self.feature].items():
            if value == np.nan:  # expect: nan-equality-check
                mask[inst] = self.keep_missing
            else:
                mask[inst] = value > self.threshold
        return pd.Series(mask)


@torch.no_grad()
def evaluate_ic(model, features: pd.DataFrame, labels: pd.Series, instrument_filter, device="cpu"):
    model.eval()
    keep = instrument_filter(features)
    kept = features.index[keep.reindex(features.index).fillna(False).astype(bool)]
    x = torch.tensor(features.loc[kept].drop(columns=["volume"]).values, dtype=torch.float32, device=device)
    pred = model(x).squeeze(-1).cpu().numpy()
    y = labels.loc[kept].values
    ic = np.corrcoef(pred, y)[0, 1]
    rank_ic = pd.Series(pred).rank().corr(pd.Series(y).rank())
    return {"IC": float(ic), "RankIC": float(rank_ic), "n": int(len(kept))}
