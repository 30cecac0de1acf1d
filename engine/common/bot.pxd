# Cython declarations for bot.py, read only by the optional compiled build (setup.py): a bot keeps its random
# generator in a C slot (and a __dict__ for anything a bot kind adds). bot.py stays plain Python.

from engine.fastrandom cimport new_random


cdef class Bot:
    cdef dict __dict__
    cdef public object rng
