# Source: https://github.com/CalculatedContent/WeightWatcher/issues/326
# Pitfall: a model-analysis tool reads user-supplied state_dict files with torch.load and no
# weights_only=True, so analysing a downloaded checkpoint can run whatever the pickle contains.
# Reproduced in our own words, not the original code.
import glob
import os

import torch


def layer_matrices(state_dict):
    for name, tensor in state_dict.items():
        if name.endswith("weight") and tensor.dim() >= 2:
            yield name, tensor.reshape(tensor.shape[0], -1).float()


def spectral_summary(matrix):
    sv = torch.linalg.svdvals(matrix)
    return {"max_sv": sv[0].item(), "stable_rank": (sv.pow(2).sum() / sv[0].pow(2)).item()}


def analyze_folder(folder):
    report = {}
    for state_dict_filename in sorted(glob.glob(os.path.join(folder, "*.pt"))):
        state_dict = torch.load(state_dict_filename, map_location=torch.device("cpu"))  # expect: torch-load-unsafe
        for name, mat in layer_matrices(state_dict):
            report[(os.path.basename(state_dict_filename), name)] = spectral_summary(mat)
    return report


if __name__ == "__main__":
    os.makedirs("/tmp/ww_layers", exist_ok=True)
    layer = torch.nn.Linear(64, 32)
    torch.save(layer.state_dict(), "/tmp/ww_layers/layer0.pt")
    for key, stats in analyze_folder("/tmp/ww_layers").items():
        print(key, stats)
