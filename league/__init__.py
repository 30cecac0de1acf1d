"""The league: clubs, players (people and bots), matches and everything a game record holds, stored.

Models are a package, one file per model. Writes go through `league.services`, reads through
`league.selectors`; the rules stay in the engine.
"""
