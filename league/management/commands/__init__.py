"""`python manage.py <command>`: the league's management commands."""
