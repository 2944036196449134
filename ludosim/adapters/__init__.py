"""The game for outside learners: a Gymnasium environment with one learning seat
(`gymnasium_env`) and a PettingZoo AEC environment with every seat an agent
(`pettingzoo_env`). Both drive the reference engine."""
