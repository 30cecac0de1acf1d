"""Template tags of the website (web/templatetags/diamonds.py: cards and suits)."""
