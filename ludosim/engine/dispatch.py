"""Calling the kernel's entry points without numba re-typing them on every call.

The batch runners take their flags as literals (`numba.literally`): one
compiled copy per combination, so a run compiles only the code its games can
reach. Numba's dispatcher does not find such a copy from plain Python
arguments: every call first types the function anew with the flags as
ordinary booleans, which `literally` interrupts, and only then finds the
copy compiled for the literal values. That costs about 30 ms a call, which a
single large run never notices but thousands of one-game calls do (the
engines' game-for-game comparison plays one kernel game at a time).

`LiteralKernel` calls the dispatcher once for each new combination of flag
values and argument types, then calls the compiled copy it found directly.
Without the JIT (`NUMBA_DISABLE_JIT=1`) the function is called as it is.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from numba import typeof, types
from numba.core.dispatcher import Dispatcher


class LiteralKernel:
    """`function` (an `njit` dispatcher asking for literal arguments at `literal`, the
    positions of its flags), called as itself but without the per-call re-typing.

    A compiled copy is looked up by the flags' values and the other arguments'
    numba types, exactly as numba matched them; anything not yet compiled goes
    through the dispatcher, which compiles (or loads) it.
    """

    def __init__(self, function: Callable[..., Any], literal: Sequence[int]) -> None:
        self.function = function
        self.literal = frozenset(literal)
        # The compiled copies met so far, by flag values and argument types: a lookup
        # table of code numba has already compiled, as the dispatcher's own.
        self._found: dict[tuple[Any, ...], Callable[..., Any]] = {}
        self.__doc__ = function.__doc__
        self.__name__ = getattr(function, "__name__", "kernel")

    def _key(self, args: tuple[Any, ...]) -> tuple[Any, ...]:
        return tuple((bool(a),) if i in self.literal else typeof(a) for i, a in enumerate(args))

    def _compiled(self, key: tuple[Any, ...]) -> Callable[..., Any] | None:
        """The dispatcher's compiled copy whose signature is `key`, if there is one."""
        for signature, result in self.function.overloads.items():
            if len(signature) == len(key) and all(
                _matches(t, k) for t, k in zip(signature, key, strict=True)
            ):
                return result.entry_point
        return None

    def __call__(self, *args: Any) -> Any:
        if not isinstance(self.function, Dispatcher):
            return self.function(*args)
        key = self._key(args)
        compiled = self._found.get(key)
        if compiled is None:
            value = self.function(*args)  # compiles or loads the copy, and plays
            compiled = self._compiled(key)
            if compiled is not None:
                self._found[key] = compiled
            return value
        return compiled(*args)


def _matches(numba_type: types.Type, key: Any) -> bool:
    """A compiled signature's argument against a call's: the literal's value, or the type."""
    if isinstance(key, tuple):
        return (
            isinstance(numba_type, types.BooleanLiteral)
            and bool(numba_type.literal_value) == key[0]
        )
    return numba_type == key
