"""Coreference model wrapper: save and restore encoder/scorer weights plus the training config."""
import dataclasses
import logging

import torch
import torch.nn as nn

logger = logging.getLogger("coref")


@dataclasses.dataclass
class Config:
    bert_model: str = "roberta-base"
    embedding_size: int = 20
    hidden_size: int = 1024
    dropout_rate: float = 0.3
    bert_learning_rate: float = 1e-5
    learning_rate: float = 3e-4


class PairwiseScorer(nn.Module):
    def __init__(self, in_dim, hidden, dropout):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(in_dim, hidden), nn.LeakyReLU(), nn.Dropout(dropout), nn.Linear(hidden, 1))

    def forward(self, pairs):
        return self.net(pairs).squeeze(-1)


class CorefModel:
    def __init__(self, config, device="cpu"):
        self.config = config
        self.device = device
        self.trainable = {
            "we": nn.Linear(768, 768).to(device),
            "a_scorer": PairwiseScorer(3 * 768, config.hidden_size, config.dropout_rate).to(device),
        }
        self.optimizers = {
            name: torch.optim.Adam(module.parameters(), lr=config.learning_rate)
            for name, module in self.trainable.items()
        }

    def save_weights(self, path):
        to_save = [(key, value) for key, value in self.trainable.items()]
        to_save.extend(self.optimizers.items())
        state = {key: value.state_dict() for key, value in to_save}
        state["config"] = dataclasses.asdict(self.config)
        torch.save(state, path)

    @classmethod
    def load_model(cls, path, map_location="cpu", ignore=frozenset()):
        state_dicts = torch.load(path, map_location=map_location)  # expect: torch-load-unsafe
        config = Config(**state_dicts.pop("config"))
        model = cls(config, device=map_location)
        for key, state_dict in state_dicts.items():
            if key in ignore:
                continue
            if key in model.trainable:
                model.trainable[key].load_state_dict(state_dict)
            elif key in model.optimizers:
                model.optimizers[key].load_state_dict(state_dict)
            else:
                logger.warning("unexpected key in checkpoint: %s", key)
        return model
