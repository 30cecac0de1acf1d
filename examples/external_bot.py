#!/usr/bin/env python3
"""An external bot in a few dozen lines of standard-library Python, for any of the league's games (Diamonds,
Diamoniak, the ring race): it waits for its turn with the long-poll, which answers with each turn's legal
decisions (`?legal=1`), picks one at random and POSTs it. It needs to know nothing of the rules: the legal
decisions are complete decisions in every game, except Diamonds' card passing, which offers the cards to choose
`count` of. When the answer to its decision carries `legal` (one of its own seats is awaited again at that match),
it decides again from it without asking. A server that leaves `legal` out (or null) costs a legal/ read.

    python examples/external_bot.py --url http://127.0.0.1:8000 --token <the bot account's API token> [--matches 1]

It prints what it does: each match as it is seated (with the page to watch it on), each decision, each result.
Get a token by creating an external bot (signed in: POST /api/v1/players/ {"kind": "external_bot", "name": ...};
on your own server `python manage.py create_external_bot NAME --ladder LADDER`), then enter it in a ladder
(POST /api/v1/ladders/{id}/join/ {"players": [its id]}).
"""

import argparse
import json
import random
import time
import urllib.error
import urllib.request


def call(url, token, method="GET", body=None):
    """One API request; returns (HTTP status, decoded JSON body)."""
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(url, data=data, method=method, headers={
        "Authorization": f"Token {token}", "Content-Type": "application/json", "Accept": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=90) as response:
            return response.status, json.loads(response.read() or b"null")
    except urllib.error.HTTPError as e:  # 4xx/5xx still carry a JSON body that says why
        return e.code, json.loads(e.read() or b"null")


def choose(legal, rng):
    """A random legal decision (passing: a random choice of `count` of the offered cards)."""
    if legal["pass_cards"]:
        offer = legal["pass_cards"]
        return {"kind": "pass_cards", "cards": rng.sample(offer["from"], offer["count"])}
    return rng.choice(legal["decisions"])


def describe(decision):
    """A decision in a few words for the log: `play H7`, `pass_cards D3 S12`, `try 7`."""
    values = [v if not isinstance(v, list) else " ".join(map(str, v)) for k, v in decision.items() if k != "kind"]
    return " ".join([decision["kind"], *map(str, values)])


def report(api, token, match, seats, say):
    """Say how a finished match ended for our seats (the API counts seats from 0, people from 1)."""
    status, body = call(f"{api}/matches/{match}/", token)
    if status != 200 or body.get("status") not in ("finished", "failed"):
        return False
    if body["status"] == "failed":
        say(f"match {match}: failed on the server")
        return True
    if body.get("result_withheld"):  # a comparison's game: how it went is shown once the other game has ended
        say(f"match {match} finished: its result is shown once its comparison twin has ended")
        return True
    table = len(body["seat_players"])
    for seat in body["seat_players"]:
        if seat["seat"] in seats:
            say(f"match {match} finished: seat {seat['seat'] + 1} placed {seat['placement']} of {table}"
                f"{' (won)' if seat['is_winner'] else ''}, {body.get('score_label') or 'score'} {seat['score']}")
    return True


def play(base, token, *, wait=30, idle_polls=None, seed=None, log=print, say=print, matches=None):
    """Play every turn the account is given. Stops after `idle_polls` long-polls in a row with no turn (never, if
    None), or once `matches` matches it played in have finished. `log` gets refusals, `say` the progress: each
    match as it starts, each decision, each result. Returns the number of decisions made."""
    rng, made, idle = random.Random(seed), 0, 0
    api = base.rstrip("/") + "/api/v1"
    playing: dict[int, set[int]] = {}  # match -> our seats there, until it is over
    finished = 0

    def check_finished(match_ids):
        nonlocal finished
        for match in match_ids:
            if report(api, token, match, playing[match], say):
                del playing[match]
                finished += 1

    while (idle_polls is None or idle < idle_polls) and (matches is None or finished < matches):
        status, body = call(f"{api}/me/turns/?wait={wait}&legal=1", token)
        if status != 200:
            raise SystemExit(f"turns: HTTP {status}: {body}")
        idle = 0 if body["turns"] else idle + 1
        # A match we play that awaits nobody of ours may have ended on somebody else's move: ask how it went.
        awaiting = {turn["match"] for turn in body["turns"]}
        check_finished([match for match in playing if match not in awaiting])
        for turn in body["turns"]:
            match, seat, legal = turn["match"], turn["seat"], turn.get("legal")
            if match not in playing:
                say(f"match {match}: playing seat {seat + 1}; watch it at {base.rstrip('/')}/matches/{match}/")
            playing.setdefault(match, set()).add(seat)
            if legal is None:
                status, legal = call(f"{api}/matches/{match}/legal/?seat={seat}", token)
            over = False
            # Decide as long as the match awaits one of our seats: each answer says whether it does.
            while status == 200 and legal and legal["my_turn"]:
                decision = choose(legal, rng)
                status, answer = call(f"{api}/matches/{match}/decisions/", token, "POST",
                                      {"move_number": legal["move_number"], "decision": decision,
                                       "seat": legal["seat"]})
                if status == 201:
                    made += 1
                    say(f"match {match}, move {legal['move_number']}: {describe(decision)}")
                    over = bool(answer.get("over"))
                    legal = answer.get("legal")  # None: no seat of ours is awaited here now (or an older server)
                else:
                    if status != 409:  # 409: the match moved on before us; anything else is worth a log line
                        log(f"match {match}: {decision} refused: HTTP {status} {answer}")
                    break
            if over:
                check_finished([match])
            # Otherwise the turn passed meanwhile (a deadline, say): the next poll says what is next.
    return made


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", default="http://127.0.0.1:8000")
    parser.add_argument("--token", required=True)
    parser.add_argument("--idle-polls", type=int, default=None, help="stop after this many empty long-polls")
    parser.add_argument("--matches", type=int, default=None, help="stop once this many of its matches have ended")
    args = parser.parse_args()
    for attempt in range(30):  # a server started a moment ago (`runserver &`) may not listen yet
        try:
            status, me = call(args.url.rstrip("/") + "/api/v1/me/", args.token)
            break
        except urllib.error.URLError as e:
            if attempt == 0:
                print(f"{args.url}: {e.reason}; waiting for the server to start", flush=True)
            time.sleep(1)
    else:
        raise SystemExit(f"{args.url} does not answer: start the server (python manage.py runserver)")
    if status != 200:
        raise SystemExit(f"{args.url}: HTTP {status} {me}: is the server running, and is the token right?")
    names = ", ".join(p["name"] for p in me["players"]) or me["username"]
    print(f"playing as {names} on {args.url}: waiting for a table (a ladder seats it at its next tick)", flush=True)
    made = play(args.url, args.token, idle_polls=args.idle_polls, matches=args.matches,
                say=lambda line: print(line, flush=True))
    print(f"made {made} decisions")


if __name__ == "__main__":
    main()
