"""Management commands of the league app."""
