"""A3C evaluation worker: periodically syncs with the shared model and plays one episode."""
import time
from collections import deque

import torch
import torch.nn.functional as F
from torch.autograd import Variable


def test(rank, args, shared_model, counter, create_env, ActorCritic):
    torch.manual_seed(args.seed + rank)
    env = create_env(args.env_name)
    env.seed(args.seed + rank)

    model = ActorCritic(env.observation_space.shape[0], env.action_space)
    model.eval()

    state = torch.from_numpy(env.reset())
    reward_sum = 0
    done = True
    start_time = time.time()
    actions = deque(maxlen=100)
    episode_length = 0
    while True:
        episode_length += 1
        if done:
            model.load_state_dict(shared_model.state_dict())
            cx = torch.zeros(1, 256)
            hx = torch.zeros(1, 256)
        else:
            cx = cx.detach()
            hx = hx.detach()

        value, logit, (hx, cx) = model((Variable(state.unsqueeze(0), volatile=True), (hx, cx)))  # expect: volatile-variable
        prob = F.softmax(logit, dim=-1)
        action = prob.max(1, keepdim=True)[1].detach().numpy()

        state, reward, done, _ = env.step(action[0, 0])
        done = done or episode_length >= args.max_episode_length
        reward_sum += reward

        actions.append(action[0, 0])
        if actions.count(actions[0]) == actions.maxlen:
            done = True

        if done:
            elapsed = time.strftime("%Hh %Mm %Ss", time.gmtime(time.time() - start_time))
            print(f"Time {elapsed}, num steps {counter.value}, episode reward {reward_sum}, length {episode_length}")
            reward_sum = 0
            episode_length = 0
            actions.clear()
            state = env.reset()
            time.sleep(60)

        state = torch.from_numpy(state)
