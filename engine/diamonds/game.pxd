# Cython declarations for game.py, read only by the optional compiled build (setup.py): `Game`, `Trick` and
# `RoundLog` become extension types whose state lives in C slots rather than an instance dict, the counters and
# positions as C integers, the hands, counts and logs as typed lists. game.py itself stays plain Python and is what
# the pure-Python path runs. A field added to Game must be added here too and to Game._copy_state, or the compiled
# build keeps it in __dict__ (and a clone goes without it). A field typed here refuses a value of another type (a
# TypeError): what game.py and the tests' set-ups store in each is its type (counts and seats are ints, hands and
# piles are lists).

cimport cython

from engine.common.instances cimport new_slots, new_tuple
from engine.common.referee cimport one_seat_pending
from engine.fastrandom cimport seeded_below, seeded_shuffle


cdef class Trick:
    cdef public object leader, winner
    cdef public list plays


cdef class RoundLog:
    cdef public object dealer, hands, pass_count, passes
    cdef public list clubs_targets, tricks, actions


# Final: its methods call one another in C without looking for a Python override on every call; the compiled
# referee cannot be subclassed (nothing does: a game's variants are ruleset fields, not subclasses).
@cython.final
cdef class Game:
    cdef dict __dict__  # anything set on a game that is not declared below, as on a plain Python object
    cdef public object ruleset, seed, auto_clubs, first_dealer, thief, result, phase, pass_count
    cdef public list seats, vault, showroom, rounds, events, choices, hands
    cdef public Py_ssize_t n, move_number, round, dealer
    cdef public long supply
    cdef public list _deals, _team_of, _suit_count, _won, _tricks_won, _passes, _plays, _trick_cards
    cdef public tuple _deck, _pending_play, _pending_count, _orders, _order
    cdef public Py_ssize_t _tricks_per_round, _trick_index, _pos
    cdef public long _led
    cdef public bint _logging
    cdef public Trick _trick
    cdef public RoundLog _log
    cdef public object _after, _clubs_actor, _clubs_cause, _clubs_chooser, _clubs_trick

    # The decisions and the flow between them as C calls between themselves (still ordinary methods from Python),
    # with the trick's position and suits as C integers.
    cpdef apply(self, seat, decision)
    @cython.locals(hand=list)
    cpdef pass_cards(self, seat, cards)
    cpdef choose_pass_count(self, seat, count)
    @cython.locals(pos=Py_ssize_t, to_play=Py_ssize_t, led=long, suit=long, hand=list, counts=list, at=Py_ssize_t)
    cpdef play(self, seat, c)
    @cython.locals(led=long, best=long, card=long, winner=Py_ssize_t, won=list, cards=list, order=tuple,
                   i=Py_ssize_t)
    cpdef _finish_trick(self)
    cpdef _start_trick(self, Py_ssize_t leader)
    @cython.locals(team=Py_ssize_t, moved=long, victim=Py_ssize_t)
    cpdef bint _act(self, Py_ssize_t seat, long suit, cause, trick) except -1
    @cython.locals(n=Py_ssize_t, s=Py_ssize_t, i=Py_ssize_t, counts=list, hands=list)
    cpdef _start_round(self, Py_ssize_t dealer)
    @cython.locals(n=Py_ssize_t, i=Py_ssize_t, seat=Py_ssize_t)
    cpdef _end_round(self)
    @cython.locals(n=Py_ssize_t, s=Py_ssize_t, to=Py_ssize_t, half=Py_ssize_t, hand_from=list, hand_to=list,
                   counts_from=list, counts_to=list, passes=list)
    cpdef _exchange(self)
    @cython.locals(suit=long, best=long, leader=Py_ssize_t, i=Py_ssize_t, x=long, teams=tuple)
    cpdef _majority_actions(self)
    @cython.locals(score=list, tied=list, winners=list, best=long, best_vault=long, i=Py_ssize_t)
    cpdef _finish_game(self)
    @cython.locals(g=Game)
    cpdef Game _clone(self, bint logging)
    cpdef _copy_state(self, Game g)


@cython.locals(trick=Trick)
cdef Trick _new_trick(leader)
