"""Two-player zero-sum games with imperfect information, solved exactly by
the sequence-form linear program (Koller, Megiddo and von Stengel; von
Stengel 1996) with ortools' GLOP.

A game is a tree of :class:`Node`: chance nodes (actions with
probabilities), decision nodes of player 0 (the maximiser) or 1, each in an
information set (a hashable key; the nodes of one set must offer the same
actions, and each player must recall its own past actions), and leaves
with player 0's payoff. The search knows nothing else of the game.

Player 0's realisation plan ``x`` (one variable a sequence of its own
actions) and player 1's best response folded in by duality give the LP:
maximise ``q_root`` subject to ``E x = e``, ``x >= 0`` and, for every
sequence ``s`` of player 1, ``q_{I(s)} - sum of q_J over the information
sets J that ``s`` leads to <= (A^T x)_s``. Its optimum is the game value;
``x`` gives player 0's equilibrium strategy.

>>> # matching pennies: the value is 0, each side plays 1/2
>>> leaves = {("H", "H"): 1, ("H", "T"): -1, ("T", "H"): -1, ("T", "T"): 1}
>>> tree = Node.decide(0, "p0", {a: Node.decide(1, "p1", {b: Node.leaf(leaves[a, b])
...                               for b in "HT"}) for a in "HT"})
>>> sol = solve(tree)
>>> round(sol.value, 9), {a: round(p, 9) for a, p in sol.root_policy.items()}
(0.0, {'H': 0.5, 'T': 0.5})
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Hashable


@dataclass
class Node:
    """One node of a game tree: ``kind`` ``"chance"``, ``"decision"`` or
    ``"leaf"``; ``player`` 0 or 1 and ``infoset`` (any hashable key, shared
    by the nodes the player cannot tell apart) for a decision; ``children``
    ``{action: node}``; ``probs`` ``{action: probability}`` for chance;
    ``value`` player 0's payoff at a leaf."""

    kind: str
    player: int = -1
    infoset: Hashable = None
    children: dict = field(default_factory=dict)
    probs: dict = field(default_factory=dict)
    value: float = 0.0

    @classmethod
    def leaf(cls, value: float) -> "Node":
        """A leaf paying ``value`` to player 0."""
        return cls("leaf", value=value)

    @classmethod
    def decide(cls, player: int, infoset: Hashable, children: dict) -> "Node":
        """A decision of ``player`` in ``infoset`` among ``children``."""
        return cls("decision", player, infoset, children)

    @classmethod
    def chance(cls, outcomes: dict) -> "Node":
        """A chance node: ``{action: (probability, node)}``."""
        return cls("chance", children={a: n for a, (_p, n) in outcomes.items()},
                   probs={a: p for a, (p, _n) in outcomes.items()})


@dataclass
class Solution:
    """The game ``value`` for player 0, its equilibrium behaviour at its
    first infoset (``root_policy``: action -> probability; empty when it
    has several first infosets), the LP's size (``variables``,
    ``constraints``) and ``seconds``."""

    value: float
    root_policy: dict
    variables: int
    constraints: int
    seconds: float


#: LP solvers tried in turn: GLOP's presolve has been seen to call a
#: bounded sequence-form LP unbounded (status 3, a Ronda deal in the arena;
#: pinned in tests/test_equilibrium.py), so on failure the same LP is
#: solved again without presolve, then without scaling, then by PDLP.
LP_ATTEMPTS = (("GLOP", ""), ("GLOP", "use_preprocessing: false"),
               ("GLOP", "use_scaling: false"), ("PDLP", ""))


class GameError(ValueError):
    """A tree that is not a proper game (infosets offering different
    actions, a player forgetting its own actions, probabilities that do not
    sum to 1)."""


def solve(root: Node, fix_root: Hashable | None = None, check=None) -> Solution:
    """Solve the game (value for player 0). With ``fix_root``, player 0
    must play that action at its first infoset (the one it meets before
    any action of its own; chance may come first): the value is that
    play's. Raises GameError for an improper tree, RuntimeError when the
    LP solver fails. ``check``: called as the LP is built and before it
    is solved, it raises when the time is up and otherwise returns the
    seconds left (None: no limit), the LP solver's own time limit."""
    return _Program(root, check).solve(fix_root)


def solve_root_moves(root: Node, check=None) -> tuple[Solution, dict]:
    """The game's solution and the value of each action of player 0's
    first infoset (the game with that first action imposed): the tree
    walked and the LP built once, each action imposed by its sequence's
    bounds and the LP solved again. ``check`` as :func:`solve`'s."""
    program = _Program(root, check)
    sol = program.solve(None)
    values = {a: program.solve(a).value for a in sol.root_policy}
    return sol, values


class _Program:
    """The sequence-form LP of one game tree: the tree walked once
    (sequences, infosets, payoffs), the LP built on the first solve and
    kept for the next ones (an imposed first action changes only its
    sequence's bounds)."""

    def __init__(self, root: Node, check=None) -> None:
        import time
        self.t0 = time.perf_counter()
        self.check = check
        seq0: dict = {(): 0}          # player 0's sequences -> column
        seq1: dict = {(): 0}          # player 1's sequences
        info0: dict = {}              # infoset -> (parent sequence, actions)
        info1: dict = {}
        payoff: dict = {}             # (seq0, seq1) -> expected payoff weight
        walked = [0]

        def walk(node: Node, s0: tuple, s1: tuple, reach: float) -> None:
            walked[0] += 1
            if check is not None and walked[0] % 1024 == 0:
                check()
            if node.kind == "leaf":
                key = (s0, s1)
                payoff[key] = payoff.get(key, 0.0) + reach * node.value
                return
            if node.kind == "chance":
                total = sum(node.probs.values())
                if abs(total - 1) > 1e-9:
                    raise GameError(f"chance probabilities sum to {total}")
                for a, child in node.children.items():
                    if node.probs[a] > 0:
                        walk(child, s0, s1, reach * node.probs[a])
                return
            actions = tuple(node.children)
            infos = info0 if node.player == 0 else info1
            own = s0 if node.player == 0 else s1
            got = infos.get(node.infoset)
            if got is None:
                infos[node.infoset] = (own, actions)
            elif got != (own, actions):
                raise GameError(f"infoset {node.infoset!r}: different actions or a forgotten "
                                f"own action")
            seqs = seq0 if node.player == 0 else seq1
            for a, child in node.children.items():
                ns = own + ((node.infoset, a),)
                if ns not in seqs:
                    seqs[ns] = len(seqs)
                if node.player == 0:
                    walk(child, ns, s1, reach)
                else:
                    walk(child, s0, ns, reach)

        walk(root, (), (), 1.0)
        self.seq0, self.seq1, self.info0, self.info1 = seq0, seq1, info0, info1
        self.first = [I for I, (parent, _a) in info0.items() if parent == ()]
        # player 1's sequences: q of the infoset the sequence ends in, less
        # the q of the infosets it leads to, is at most player 0's payoff
        # against it
        self.leads: dict = {s: [] for s in seq1}
        for I, (parent, _actions) in info1.items():
            self.leads[parent].append(I)
        self.by_seq1: dict = {s: [] for s in seq1}
        for (s0, s1), w in payoff.items():
            self.by_seq1[s1].append((s0, w))
        self.built = None           # (lp, x, q_root) of the LP solver that worked

    def _build(self, solver: str, params: str, fix_root):
        """The LP on ``solver`` (the solver's low-level API: a constraint
        and its coefficients, no expression objects)."""
        from ortools.linear_solver import pywraplp
        check = self.check
        lp = pywraplp.Solver.CreateSolver(solver)
        if lp is None:    # pragma: no cover - ortools without the solver
            return None
        if params:
            lp.SetSolverSpecificParametersAsString(params)
        inf = lp.infinity()
        x = {s: lp.NumVar(0.0, inf, f"x{i}") for s, i in self.seq0.items()}
        q_root = lp.NumVar(-inf, inf, "q_root")
        q = {I: lp.NumVar(-inf, inf, f"q{i}") for i, I in enumerate(self.info1)}
        # player 0's realisation plan
        x[()].SetBounds(1.0, 1.0)
        for I, (parent, actions) in self.info0.items():
            ct = lp.Constraint(0.0, 0.0)
            for a in actions:
                ct.SetCoefficient(x[parent + ((I, a),)], 1.0)
            ct.SetCoefficient(x[parent], -1.0)
        for i, s in enumerate(self.seq1):
            if check is not None and i % 256 == 255:
                check()
            # lhs - rhs <= 0: lhs the q's, rhs player 0's payoff weights
            coef: dict = {}
            top = q_root if s == () else q[s[-1][0]]
            coef[top] = coef.get(top, 0.0) + 1.0
            for J in self.leads[s]:
                coef[q[J]] = coef.get(q[J], 0.0) - 1.0
            for s0, w in self.by_seq1[s]:
                coef[x[s0]] = coef.get(x[s0], 0.0) - w
            ct = lp.Constraint(-inf, 0.0)
            for var, c in coef.items():
                ct.SetCoefficient(var, c)
        objective = lp.Objective()
        objective.SetCoefficient(q_root, 1.0)
        objective.SetMaximization()
        self._impose(x, fix_root, inf)
        return lp, x, q_root

    def _impose(self, x: dict, fix_root, inf: float) -> None:
        """Player 0's first sequences' bounds: ``fix_root``'s at 1 (the
        others then 0 by the plan's constraint), or all free."""
        if len(self.first) != 1:
            return
        I = self.first[0]
        for a in self.info0[I][1]:
            if a == fix_root:
                x[((I, a),)].SetBounds(1.0, 1.0)
            else:
                x[((I, a),)].SetBounds(0.0, inf)

    def solve(self, fix_root) -> Solution:
        import time
        from ortools.linear_solver import pywraplp
        check = self.check
        if fix_root is not None:
            if len(self.first) != 1:
                raise GameError("fix_root needs one first infoset of player 0")
            if fix_root not in self.info0[self.first[0]][1]:
                raise GameError(f"{fix_root!r} is not an action of player 0's first infoset")
        t0 = time.perf_counter()
        statuses = []
        attempts = list(LP_ATTEMPTS)
        if self.built is not None:      # the LP that solved before, first
            attempts.insert(0, None)
        for attempt in attempts:
            if attempt is None:
                lp, x, q_root = self.built
                self._impose(x, fix_root, lp.infinity())
                name = "kept"
            else:
                got = self._build(*attempt, fix_root)
                if got is None:    # pragma: no cover
                    continue
                lp, x, q_root = got
                name = f"{attempt[0]} {attempt[1] or 'default'}"
            left = check() if check is not None else None
            if left is not None:
                lp.SetTimeLimit(max(1, int(left * 1000)))
            status = lp.Solve()
            statuses.append(f"{name}: {status}")
            if status == pywraplp.Solver.OPTIMAL:
                self.built = (lp, x, q_root)
                break
        else:
            if check is not None:
                check()         # stopped by its time limit: the time is up
            raise RuntimeError(f"the sequence-form LP did not solve ({'; '.join(statuses)})")
        policy = {}
        if len(self.first) == 1:
            I = self.first[0]
            for a in self.info0[I][1]:
                policy[a] = x[((I, a),)].solution_value()
        return Solution(q_root.solution_value(), policy, lp.NumVariables(),
                        lp.NumConstraints(), time.perf_counter() - t0)


def brute_force_value(root: Node) -> float:
    """The game value from the normal form: every pure strategy of each
    player (a choice at each of its infosets) is enumerated, the expected
    payoff matrix built, and the matrix game solved by a plain LP. Tiny
    games only (the cross-check of :func:`solve`)."""
    from itertools import product
    from ortools.linear_solver import pywraplp

    infos: list[dict] = [{}, {}]

    def collect(node: Node) -> None:
        if node.kind == "decision":
            infos[node.player][node.infoset] = tuple(node.children)
        for child in node.children.values():
            collect(child)

    collect(root)

    def pure(p: int) -> list[dict]:
        keys = list(infos[p])
        return [dict(zip(keys, choice)) for choice in product(*(infos[p][k] for k in keys))]

    def payoff(node: Node, s0: dict, s1: dict) -> float:
        if node.kind == "leaf":
            return node.value
        if node.kind == "chance":
            return sum(node.probs[a] * payoff(c, s0, s1) for a, c in node.children.items())
        s = s0 if node.player == 0 else s1
        return payoff(node.children[s[node.infoset]], s0, s1)

    rows, cols = pure(0), pure(1)
    M = [[payoff(root, r, c) for c in cols] for r in rows]
    lp = pywraplp.Solver.CreateSolver("GLOP")
    p = [lp.NumVar(0.0, 1.0, f"p{i}") for i in range(len(rows))]
    v = lp.NumVar(-lp.infinity(), lp.infinity(), "v")
    lp.Add(sum(p) == 1)
    for j in range(len(cols)):
        lp.Add(v <= sum(p[i] * M[i][j] for i in range(len(rows))))
    lp.Maximize(v)
    lp.Solve()
    return v.solution_value()
