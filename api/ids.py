"""Ids in requests: a query filter's and a body's id is a whole number the id column can hold (a larger one is a
400, not a database error)."""

from __future__ import annotations

import django_filters
from django import forms
from rest_framework.exceptions import ValidationError


class IdField(forms.IntegerField):
    """An id in a query parameter: a whole number the database can hold (a larger one is a 400, not a 500)."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("min_value", 0)
        kwargs.setdefault("max_value", 2**63 - 1)
        super().__init__(*args, **kwargs)


class IdFilter(django_filters.NumberFilter):
    field_class = IdField


def body_id(value, name: str) -> int:
    """An id from a body: a whole number the id column can hold (a larger one is a 400, not a database error)."""
    if isinstance(value, bool) or isinstance(value, float):
        raise ValidationError({name: "an integer id"})
    try:
        number = int(value)
    except (TypeError, ValueError):
        raise ValidationError({name: "an integer id"}) from None
    if not 0 <= number < 2**63:
        raise ValidationError({name: "an id is a whole number from 0 to 2**63 - 1"})
    return number
