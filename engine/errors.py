"""The one error the engine raises for a refused decision, carrying the rule id it breaks."""

from __future__ import annotations


class IllegalDecision(Exception):
    """A decision the rules refuse. The game is unchanged when this is raised."""

    def __init__(self, rule: str, message: str):
        super().__init__(f"{rule}: {message}")
        self.rule = rule
        self.message = message


class InvalidRuleset(ValueError):
    """A ruleset the game cannot be played with (e.g. 7 players, partnerships with 5)."""
