"""Rainbow agent construction: distributional dueling network, optional pretrained weights."""
import os

import torch
from torch import optim


class Agent:
    def __init__(self, args, env, DQN):
        self.action_space = env.action_space()
        self.atoms = args.atoms
        self.Vmin, self.Vmax = args.V_min, args.V_max
        self.support = torch.linspace(args.V_min, args.V_max, self.atoms).to(device=args.device)
        self.delta_z = (args.V_max - args.V_min) / (self.atoms - 1)
        self.batch_size = args.batch_size
        self.n = args.multi_step
        self.discount = args.discount

        self.online_net = DQN(args, self.action_space).to(device=args.device)
        if args.model:
            if os.path.isfile(args.model):
                state_dict = torch.load(args.model, map_location="cpu")  # expect: torch-load-unsafe
                self.online_net.load_state_dict(state_dict)
                print("Loading pretrained model: " + args.model)
            else:
                raise FileNotFoundError(args.model)
        self.online_net.train()
        self.target_net = DQN(args, self.action_space).to(device=args.device)
        self.update_target_net()
        self.target_net.train()
        for param in self.target_net.parameters():
            param.requires_grad = False
        self.optimiser = optim.Adam(self.online_net.parameters(), lr=args.learning_rate, eps=args.adam_eps)

    def update_target_net(self):
        self.target_net.load_state_dict(self.online_net.state_dict())

    def act(self, state):
        with torch.no_grad():
            return (self.online_net(state.unsqueeze(0)) * self.support).sum(2).argmax(1).item()
