# Source: https://github.com/allenai/allennlp/commit/70974d2d10f1d70555b9385ce3a9223f179c7bdd
# Pitfall: the EVALB-based validation metric guards against a failed scorer run with `x == math.nan`, which is
#   always False, so NaN precision/recall slip into the running averages used for model selection.
# Reproduced in our own words, not the original code.
import math
import os
import re
import subprocess
import tempfile

import torch


class BracketingScorer:
    _recall_re = re.compile(r"Bracketing Recall\s+=\s+(\d+\.\d+)")
    _precision_re = re.compile(r"Bracketing Precision\s+=\s+(\d+\.\d+)")

    def __init__(self, evalb_bin, evalb_params):
        self.evalb_bin = evalb_bin
        self.evalb_params = evalb_params
        self.reset()

    def reset(self):
        self._precision_sum, self._recall_sum, self._count = 0.0, 0.0, 0

    def __call__(self, predicted_trees, gold_trees):
        tmp = tempfile.mkdtemp()
        gold_path, pred_path, out_path = (os.path.join(tmp, n) for n in ("gold.txt", "pred.txt", "out.txt"))
        with open(gold_path, "w") as g, open(pred_path, "w") as p:
            g.writelines(f"{t}\n" for t in gold_trees)
            p.writelines(f"{t}\n" for t in predicted_trees)
        with open(out_path, "w") as out:
            subprocess.run([self.evalb_bin, "-p", self.evalb_params, gold_path, pred_path], stdout=out, check=True)
        recall, precision = math.nan, math.nan
        with open(out_path) as out:
            for line in out:
                m = self._recall_re.match(line)
                if m:
                    recall = float(m.group(1))
                m = self._precision_re.match(line)
                if m:
                    precision = float(m.group(1))
        if any([recall == math.nan, precision == math.nan]):  # expect: nan-equality-check
            raise RuntimeError(f"EVALB produced invalid metrics: recall {recall}, precision {precision}")
        self._precision_sum += precision / 100.0
        self._recall_sum += recall / 100.0
        self._count += 1

    def get_metric(self, reset=False):
        p = self._precision_sum / self._count if self._count else 0.0
        r = self._recall_sum / self._count if self._count else 0.0
        f1 = 2 * p * r / (p + r) if p + r > 0 else 0.0
        if reset:
            self.reset()
        return {"evalb_precision": p, "evalb_recall": r, "evalb_f1": f1}


@torch.no_grad()
def validate(parser, loader, scorer):
    parser.eval()
    for batch in loader:
        predicted = parser.decode(parser(batch["tokens"]))
        scorer(predicted, batch["gold_trees"])
    parser.train()
    return scorer.get_metric(reset=True)
