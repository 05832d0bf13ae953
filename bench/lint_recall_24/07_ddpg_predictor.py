"""Serving-side predictor for a DDPG actor trained offline."""
import numpy as np
import torch
from torch import nn
from torch.autograd import Variable


class Actor(nn.Module):
    def __init__(self, state_dim, action_dim, max_action=1.0):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(state_dim, 128), nn.ReLU(),
            nn.Linear(128, 128), nn.ReLU(),
            nn.Linear(128, action_dim), nn.Tanh(),
        )
        self.max_action = max_action

    def forward(self, state):
        return self.max_action * self.net(state)


class DDPGPredictor:
    def __init__(self, actor, feature_names):
        self.actor = actor
        self.actor.eval()
        self.feature_names = feature_names

    def _vectorize(self, rows):
        examples = []
        for row in rows:
            examples.append([float(row.get(k, 0.0)) for k in self.feature_names])
        return np.array(examples, dtype=np.float32)

    def predict(self, rows):
        state_examples = Variable(torch.from_numpy(self._vectorize(rows)), volatile=True)  # expect: volatile-variable
        actions = self.actor(state_examples)
        actions_np = actions.data.numpy()
        return [dict(enumerate(a.tolist())) for a in actions_np]


if __name__ == "__main__":
    names = ["pos", "vel", "angle", "ang_vel"]
    predictor = DDPGPredictor(Actor(len(names), 2), names)
    print(predictor.predict([{"pos": 0.1, "vel": -0.3}, {"angle": 0.05}]))
