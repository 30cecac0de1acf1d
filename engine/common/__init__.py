"""What the newer games (Diamoniak, the ring race) share, written once: the choices record, the seat view's
decision part, the bots over complete `legal` decisions, and the referee's table set-up and bookkeeping.

Each game keeps its own rules, decisions, views and bots; these modules hold only the logic that is the same
for every game of that shape (one seat decides at a time and `legal(seat)` lists complete decisions).
"""
