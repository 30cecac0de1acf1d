#!/usr/bin/env python3
"""An external bot in a few dozen lines of standard-library Python, for any of the league's games (Diamonds,
Diamoniak, the ring race): it waits for its turn with the long-poll, which answers with each turn's legal
decisions (`?legal=1`), picks one at random and POSTs it. It needs to know nothing of the rules: the legal
decisions are complete decisions in every game, except Diamonds' card passing, which offers the cards to choose
`count` of. When the answer to its decision carries `legal` (one of its own seats is awaited again at that match),
it decides again from it without asking. A server that leaves `legal` out (or null) costs a legal/ read.

    python examples/external_bot.py --url http://127.0.0.1:8000 --token <the bot account's API token>

Get a token by registering an external bot (POST /api/v1/players/ {"kind": "external_bot", ...} as a club
organiser, or `python manage.py create_external_bot NAME`).
"""

import argparse
import json
import random
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


def play(base, token, *, wait=30, idle_polls=None, seed=None, log=print):
    """Play every turn the account is given. Stops after `idle_polls` long-polls in a row with no turn (never, if
    None). Returns the number of decisions made."""
    rng, made, idle = random.Random(seed), 0, 0
    api = base.rstrip("/") + "/api/v1"
    while idle_polls is None or idle < idle_polls:
        status, body = call(f"{api}/me/turns/?wait={wait}&legal=1", token)
        if status != 200:
            raise SystemExit(f"turns: HTTP {status}: {body}")
        idle = 0 if body["turns"] else idle + 1
        for turn in body["turns"]:
            match, seat, legal = turn["match"], turn["seat"], turn.get("legal")
            if legal is None:
                status, legal = call(f"{api}/matches/{match}/legal/?seat={seat}", token)
            # Decide as long as the match awaits one of our seats: each answer says whether it does.
            while status == 200 and legal and legal["my_turn"]:
                decision = choose(legal, rng)
                status, answer = call(f"{api}/matches/{match}/decisions/", token, "POST",
                                      {"move_number": legal["move_number"], "decision": decision,
                                       "seat": legal["seat"]})
                if status == 201:
                    made += 1
                    legal = answer.get("legal")  # None: no seat of ours is awaited here now (or an older server)
                else:
                    if status != 409:  # 409: the match moved on before us; anything else is worth a log line
                        log(f"match {match}: {decision} refused: HTTP {status} {answer}")
                    break
            # Otherwise the turn passed meanwhile (a deadline, say): the next poll says what is next.
    return made


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", default="http://127.0.0.1:8000")
    parser.add_argument("--token", required=True)
    parser.add_argument("--idle-polls", type=int, default=None, help="stop after this many empty long-polls")
    args = parser.parse_args()
    print(f"made {play(args.url, args.token, idle_polls=args.idle_polls)} decisions")


if __name__ == "__main__":
    main()
