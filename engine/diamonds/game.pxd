# Cython declarations for game.py, read only by the optional compiled build (setup.py): `Game` becomes an
# extension type whose state lives in C slots rather than an instance dict, the one change that makes the
# referee's many `self.x` reads cheap. game.py itself stays plain Python and is what the pure-Python path runs.
# Every field is a Python object, so any value game.py (or a test's set-up) stores keeps working; a field
# added to Game must be added here too and to Game._copy_state, or the compiled build keeps it in __dict__.

cimport cython

from engine.fastrandom cimport seeded_below, seeded_shuffle


cdef class Game:
    cdef dict __dict__  # anything set on a game that is not declared below, as on a plain Python object
    cdef public object ruleset, seed, seats, n, auto_clubs, first_dealer, thief
    cdef public object supply, vault, showroom, rounds, events, choices, move_number, result
    cdef public object phase, round, dealer, hands, pass_count
    cdef public object _deals, _deck, _pending_play, _pending_count, _orders, _team_of, _tricks_per_round, _logging
    cdef public object _suit_count, _won, _tricks_won, _passes, _trick_index, _order, _pos, _led, _trick, _plays
    cdef public object _log, _after, _clubs_actor, _clubs_cause, _clubs_chooser, _clubs_trick

    # The card play and what follows it, as C calls between themselves (still ordinary methods from Python),
    # with the trick's position and suits as C integers.
    @cython.locals(pos=Py_ssize_t, led=long, suit=long)
    cpdef play(self, seat, c)
    cpdef _finish_trick(self)
    cpdef _start_trick(self, leader)
    cpdef _act(self, seat, suit, cause, trick)
