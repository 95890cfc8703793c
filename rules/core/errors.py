"""The one exception an engine raises for input it will not take."""


class IllegalAction(Exception):
    """An action the rules do not allow, or input that is not an action at all.

    ``reason`` is written for the person at the table ("GW cannot pass through a
    house at D4"), never a Python message. Raising it guarantees that the state
    the action was applied to is unchanged.
    """

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason

    def __str__(self) -> str:
        return self.reason
