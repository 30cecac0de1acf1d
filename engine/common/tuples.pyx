# cython: language_level=3
"""The compiled build's `engine.common.tuples` (setup.py compiles this file in place of tuples.py, its reference).

`new_tuple(cls, values)` allocates an instance of the tuple subclass `cls` with `cls`'s own allocator and fills it
with `values`, as `tuple.__new__(cls, values)` does (CPython's tuple_subtype_new), without the method lookup and
the intermediate tuple.
"""

from cpython.object cimport PyTypeObject
from cpython.ref cimport Py_INCREF
from cpython.tuple cimport PyTuple_GET_ITEM, PyTuple_GET_SIZE, PyTuple_SET_ITEM

cdef extern from *:
    """
    static PyObject *engine_tuples_alloc(PyTypeObject *t, Py_ssize_t n) { return t->tp_alloc(t, n); }
    """
    object engine_tuples_alloc(PyTypeObject *t, Py_ssize_t n)
    bint PyType_IsSubtype(PyTypeObject *a, PyTypeObject *b)


cpdef object new_tuple(type cls, tuple values):
    """`tuple.__new__(cls, values)` for a tuple subclass `cls`."""
    cdef Py_ssize_t i, n = PyTuple_GET_SIZE(values)
    cdef object result, item
    if cls is tuple or not PyType_IsSubtype(<PyTypeObject *>cls, <PyTypeObject *>tuple):
        return tuple.__new__(cls, values)
    result = engine_tuples_alloc(<PyTypeObject *>cls, n)
    for i in range(n):
        item = <object>PyTuple_GET_ITEM(values, i)
        Py_INCREF(item)  # the tuple takes this reference over
        PyTuple_SET_ITEM(result, i, item)
    return result
