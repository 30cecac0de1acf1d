"""The website: public pages for clubs, leagues, tournaments, ladders, players and matches, and a table to play at.

Server-rendered Django templates with a little plain JavaScript (static/web/) for live tables and replays; views
only read through league.selectors and write through league.services, as the API does.
"""
