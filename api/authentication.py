"""Token authentication (`Authorization: Token <key>`) with the token and its account read by one prepared-once query.

Every call of an external bot (a legal/ read and a decision POST per move) authenticates, and DRF's
TokenAuthentication builds its token-and-user join through the ORM each time: compiling that query cost more CPU
than the database spent answering it. This class sends the same join as SQL written once per process and builds
the same Token and User objects from the row (with the database backend's value converters, so a SQLite datetime
is a datetime here too). What it accepts and refuses is DRF's, word for word.
"""

from __future__ import annotations

from functools import cache, lru_cache

from django.contrib.auth import get_user_model
from django.db import connections, router
from django.utils.translation import gettext_lazy as _
from rest_framework import authentication, exceptions


class TokenAuthentication(authentication.TokenAuthentication):
    def authenticate_credentials(self, key):
        model = self.get_model()
        db = router.db_for_read(model)
        connection = connections[db]
        sql, token_fields, user_fields = _token_query(model, connection.vendor)
        with connection.cursor() as cursor:
            cursor.execute(sql, [key])
            row = cursor.fetchone()
        if row is None:
            raise exceptions.AuthenticationFailed(_("Invalid token."))
        values = _converted(connection, _converters(model, connection), row)
        n = len(token_fields)
        token = model.from_db(db, [f.attname for f in token_fields], values[:n])
        user = get_user_model().from_db(db, [f.attname for f in user_fields], values[n:])
        token.user = user  # type: ignore[attr-defined]  # the token model's user (get_model() says only Model)
        if not user.is_active:
            raise exceptions.AuthenticationFailed(_("User inactive or deleted."))
        return (user, token)


@cache
def _token_query(model, vendor: str) -> tuple[str, list, list]:
    """The token-and-user join for `model` (the token model) on a database of `vendor`, with the fields it reads
    in order: written once per process."""
    ops = connections[router.db_for_read(model)].ops
    q = ops.quote_name
    user_model = get_user_model()
    token_fields = list(model._meta.concrete_fields)
    user_fields = list(user_model._meta.concrete_fields)
    token_table, user_table = q(model._meta.db_table), q(user_model._meta.db_table)
    columns = [f"{token_table}.{q(f.column)}" for f in token_fields]
    columns += [f"{user_table}.{q(f.column)}" for f in user_fields]
    user_fk = model._meta.get_field("user")
    sql = (f"SELECT {', '.join(columns)} FROM {token_table} INNER JOIN {user_table} "
           f"ON {token_table}.{q(user_fk.column)} = {user_table}.{q(user_fk.target_field.column)} "
           f"WHERE {token_table}.{q(model._meta.get_field('key').column)} = %s")
    return sql, token_fields, user_fields


@lru_cache(maxsize=256)
def _converters(model, connection) -> list[tuple]:
    """Per column of the token query on `connection` (a thread's: the backend's converters are its methods): its Col
    and the converters the ORM applies to it (the backend's, then the field's own). Found once per connection:
    looking them up cost more than applying them."""
    _, token_fields, user_fields = _token_query(model, connection.vendor)
    out = []
    for field in token_fields + user_fields:
        col = field.get_col(field.model._meta.db_table)
        out.append((col, connection.ops.get_db_converters(col) + field.get_db_converters(connection)))
    return out


def _converted(connection, converters: list[tuple], row) -> list:
    """The row's values as the ORM would load them."""
    out = []
    for (col, converts), value in zip(converters, row):
        for convert in converts:
            value = convert(value, col, connection)
        out.append(value)
    return out
