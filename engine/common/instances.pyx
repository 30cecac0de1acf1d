# cython: language_level=3
"""The compiled build's `engine.common.instances` (setup.py compiles this file in place of instances.py, its
reference): the same two functions, the instances allocated and filled in C.

`new_tuple(cls, values)` allocates an instance of the tuple subclass `cls` with `cls`'s own allocator and fills it
with `values`, as `tuple.__new__(cls, values)` does (CPython's tuple_subtype_new), without the method lookup and
the intermediate tuple. `new_slots(cls, values)` allocates an instance of `cls` and stores `values` in its slots
through the offsets of the slots' member descriptors, as `object.__setattr__` does through those descriptors,
without the two calls a field (a frozen dataclass's own `__setattr__` is bypassed, as `object.__setattr__`
bypasses it). A class it cannot fill so (slots that are not plain object slots, or a `__dict__`) goes to the
reference's spelling.
"""

from cpython.object cimport PyObject, PyTypeObject
from cpython.ref cimport Py_INCREF, Py_XDECREF
from cpython.tuple cimport PyTuple_GET_ITEM, PyTuple_GET_SIZE, PyTuple_SET_ITEM

cdef extern from *:
    """
    #include <structmember.h>
    static PyObject *engine_instances_alloc(PyTypeObject *t, Py_ssize_t n) { return t->tp_alloc(t, n); }
    /* The slot of a member descriptor holding any object (T_OBJECT_EX, what __slots__ makes), or -1. */
    static Py_ssize_t engine_instances_slot_offset(PyObject *descr) {
        if (Py_TYPE(descr) != &PyMemberDescr_Type) return -1;
        PyMemberDef *member = ((PyMemberDescrObject *)descr)->d_member;
        if (member->type != T_OBJECT_EX || (member->flags & READONLY)) return -1;
        return member->offset;
    }
    static void engine_instances_set_slot(PyObject *obj, Py_ssize_t offset, PyObject *value) {
        PyObject **slot = (PyObject **)((char *)obj + offset);
        PyObject *old = *slot;
        Py_INCREF(value);
        *slot = value;
        Py_XDECREF(old);
    }
    """
    object engine_instances_alloc(PyTypeObject *t, Py_ssize_t n)
    Py_ssize_t engine_instances_slot_offset(object descr)
    void engine_instances_set_slot(object obj, Py_ssize_t offset, object value)
    bint PyType_IsSubtype(PyTypeObject *a, PyTypeObject *b)

cdef dict _offsets = {}  # class -> tuple of its slots' offsets, or None when it is filled the reference's way


cpdef object new_tuple(type cls, tuple values):
    """`tuple.__new__(cls, values)` for a tuple subclass `cls`."""
    cdef Py_ssize_t i, n = PyTuple_GET_SIZE(values)
    cdef object result, item
    if cls is tuple or not PyType_IsSubtype(<PyTypeObject *>cls, <PyTypeObject *>tuple):
        return tuple.__new__(cls, values)
    result = engine_instances_alloc(<PyTypeObject *>cls, n)
    for i in range(n):
        item = <object>PyTuple_GET_ITEM(values, i)
        Py_INCREF(item)  # the tuple takes this reference over
        PyTuple_SET_ITEM(result, i, item)
    return result


cdef object _slot_offsets(type cls):
    """The offsets of `cls`'s slots in `__slots__` order, or None if `cls` is not a plain slots class."""
    cdef list found = []
    cdef Py_ssize_t offset
    names = cls.__dict__.get("__slots__")
    if not isinstance(names, tuple) or (<PyTypeObject *>cls).tp_dictoffset != 0:
        return None
    for name in names:
        offset = engine_instances_slot_offset(cls.__dict__.get(name))
        if offset < 0:
            return None
        found.append(offset)
    return tuple(found)


cpdef object new_slots(type cls, tuple values):
    """`cls(*values)` for a frozen dataclass with slots, as its `__init__` makes it."""
    cdef tuple offsets
    cdef Py_ssize_t i
    cdef object made
    known = _offsets.get(cls, False)
    if known is False:
        known = _offsets[cls] = _slot_offsets(cls)
    if known is None or len(<tuple>known) != len(values):
        made = object.__new__(cls)
        for name, value in zip(cls.__slots__, values, strict=True):
            object.__setattr__(made, name, value)
        return made
    offsets = <tuple>known
    made = engine_instances_alloc(<PyTypeObject *>cls, 0)
    for i in range(len(values)):
        engine_instances_set_slot(made, <Py_ssize_t>offsets[i], values[i])
    return made
