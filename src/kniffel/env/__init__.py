"""Reinforcement-learning environments of the Kniffel family (needs the ``rl`` extra:
``pip install 'kniffel[rl]'``).

* :class:`KniffelEnv`: Gymnasium, one player of any rule set; importing this package registers it as
  ``kniffel/Kniffel-v0`` (``gymnasium.make("kniffel/Kniffel-v0", rules="yatzy", options={...})``).
* :class:`KniffelAECEnv`: PettingZoo AEC, 2 to 8 players at one table; :mod:`kniffel.env.kniffel_v0` has
  it as PettingZoo's own environments come (``kniffel_v0.env()``, ``kniffel_v0.raw_env()``).
* :class:`VectorKniffelEnv`: many single-column games stepped at once in compiled code; what
  ``gymnasium.make_vec("kniffel/Kniffel-v0", num_envs=N, rules=...)`` makes.
* :mod:`kniffel.env.openspiel` (the ``openspiel`` extra, imported on its own): every rule set as a game
  of OpenSpiel's, with chance nodes for the dice.

They share one encoding of actions and observations (:mod:`kniffel.env.encoding`): a ``Discrete``
space of every throw (a bit mask of the dice held), every score, strike and announcement, the legal ones
marked in ``info["action_mask"]`` (in the table's observation, as PettingZoo's classic games mark them),
and a flat vector of what the player sees. Each can add the optimal action and every legal action's value
for a goal (``optimal_action=True``, :mod:`kniffel.env.optimal`).
"""

from __future__ import annotations

import gymnasium

from kniffel.env.encoding import Encoding, EnvActionError
from kniffel.env.multi import KniffelAECEnv
from kniffel.env.single import KniffelEnv
from kniffel.env.vector import VectorKniffelEnv

ENV_ID = "kniffel/Kniffel-v0"

if ENV_ID not in gymnasium.registry:
    gymnasium.register(
        id=ENV_ID,
        entry_point="kniffel.env.single:KniffelEnv",
        vector_entry_point="kniffel.env.vector:VectorKniffelEnv",
    )

__all__ = ["ENV_ID", "Encoding", "EnvActionError", "KniffelAECEnv", "KniffelEnv", "VectorKniffelEnv"]
