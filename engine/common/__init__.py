"""What the newer games (Diamoniak, the ring race) share, written once; each game keeps its own rules,
decisions, table view and heuristic bot. For games where one seat decides at a time and `legal(seat)` lists
complete decisions:

- `choices_record`: a record format made of choices, its export, replay and check;
- `seat_view`: the seat view's base (also Diamonds') and the JSON frame of a seat's view;
- `decision_bots`: the random bot, bots by name, the loop that plays a game to its end;
- `referee`: the table set-up (seats, first player, given cards on top), choices, events, places, result JSON;
- `ruleset_dict`: a dataclass ruleset to and from its dict.
"""
