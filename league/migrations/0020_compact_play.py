"""Compact match storage: every match's play becomes its ordered choices, compactly encoded (engine.common.compact),
in `Match.moves`; the rows per round, trick, Suit Action (Diamonds) and choice (the newer games) go.

Each match's choices are recovered by replaying its old rows as the old loader did (a Diamonds round's passes in
seat order, its clubs targets as they fell due), and the match is kept only if the record derived from the new
storage is the record the old rows gave, field for field; otherwise the migration stops and names the match, so
nothing is ever dropped silently. A Diamonds match whose stored hands are not the ones its seed deals (none the
league made: it deals every match from its seed) keeps them in `Match.deals`.

Going back rebuilds the old rows from the replayed games, so the migration can be reversed without loss.
"""

from django.db import migrations, models
import django.db.models.deletion

BATCH = 500


class Unmovable(Exception):
    pass


def _diamonds_old_record(Ruleset, FORMAT, match, rounds, tricks, actions):
    """The record the old rows gave (the old league.selectors.records.match_record)."""
    ruleset = Ruleset.from_dict(match.ruleset)
    out = []
    for r in rounds:
        passes = r.passes
        if passes is not None and any(p is None for p in passes):
            passes = None
        out.append({"dealer": r.dealer, "hands": r.hands, "pass_count": r.pass_count, "passes": passes,
                    "clubs_targets": list(r.clubs_targets), "tricks": [], "actions": []})
    for t in tricks:
        out[t.round]["tricks"].append({"leader": t.leader, "plays": t.plays, "winner": t.winner})
    for a in actions:
        out[a.round]["actions"].append({"seat": a.seat, "suit": a.suit, "cause": a.cause, "trick": a.trick,
                                        "target": a.target, "moved": a.moved})
    record = {"format": FORMAT, "ruleset": ruleset.to_dict(), "seed": match.seed, "seats": list(match.seats),
              "teams": [list(t) for t in ruleset.teams] if ruleset.partnerships else None,
              "first_dealer": match.first_dealer, "rounds": out}
    if match.result is not None:
        record["result"] = match.result
    return record


def _diamonds_replay_old(match, rounds, tricks):
    """The game the old rows replay to (the old league.selectors.games.replay_stored)."""
    from engine import CLUBS_TARGET, Game, Ruleset, parse_card, parse_cards

    game = Game(Ruleset.from_dict(match.ruleset), match.seed, match.seats, deals=[r.hands for r in rounds],
                first_dealer=match.first_dealer)
    by_round = {}
    for t in tricks:
        by_round.setdefault(t.round, []).append(t)

    def settle(index, targets):
        while game.pending is not None and game.pending.kind == CLUBS_TARGET and game.round == index:
            k = len(game.rounds[index].clubs_targets)
            if k >= len(targets):
                return
            game.choose_clubs_target(game.pending.seats[0], targets[k])

    for r in rounds:
        if game.round != r.index:
            raise Unmovable(f"round {r.index} is stored but the game is in round {game.round}")
        if r.pass_count is None:
            break
        game.choose_pass_count(game.dealer, r.pass_count)
        for seat, cards in enumerate(r.passes or []):
            if cards is not None:
                game.pass_cards(seat, parse_cards(cards))
        for t in by_round.get(r.index, []):
            for play in t.plays:
                settle(r.index, r.clubs_targets or [])
                game.play(play["seat"], parse_card(play["card"]))
        settle(r.index, r.clubs_targets or [])
    return game


def _derived_record(kind, match, choices, deals):
    """The record the new storage derives (league.selectors.records.match_record), and the replayed game."""
    ruleset = kind.stored_ruleset(match.ruleset)
    if deals:
        game = kind.game(ruleset, match.seed, match.seats, deals=deals,
                         **{kind.first_seat_keyword: match.first_dealer})
    else:
        game = kind.new_game(ruleset, match.seed, match.seats, first_seat=match.first_dealer)
    for seat, decision in choices:
        game.apply(seat, decision)
    record = kind.to_record(game)
    if match.game == "diamonds":
        for r in record["rounds"]:
            r["tricks"] = [t for t in r["tricks"] if t["plays"]]
        record.pop("result", None)
        if match.result is not None:
            record["result"] = match.result
    return record, game


def _moved(apps, match, kind):
    """(moves, deals) for one match from its old rows; Unmovable when they cannot be moved without loss."""
    from engine import FORMAT, Ruleset

    if match.game == "diamonds":
        rounds = list(apps.get_model("league", "MatchRound").objects.filter(match=match).order_by("index"))
        if not rounds:
            return b"", None
        tricks = list(apps.get_model("league", "Trick").objects.filter(match=match).order_by("round", "index"))
        actions = list(apps.get_model("league", "SuitAction").objects.filter(match=match)
                       .order_by("round", "sequence"))
        old = _diamonds_old_record(Ruleset, FORMAT, match, rounds, tricks, actions)
        game = _diamonds_replay_old(match, rounds, tricks)
        choices = list(game.choices)
        given = [r.hands for r in rounds]
        candidates = [None, given]  # dealt from the seed, as the league deals; else the hands the rows hold
    else:
        rows = apps.get_model("league", "MatchChoice").objects.filter(match=match).order_by("index")
        choices = [(row.seat, kind.parse_decision(row.decision)) for row in rows]
        if not choices:
            return b"", None
        old_game = kind.new_game(kind.stored_ruleset(match.ruleset), match.seed, match.seats,
                                 first_seat=match.first_dealer)
        for seat, decision in choices:
            old_game.apply(seat, decision)
        old = kind.to_record(old_game)
        candidates = [None]
    moves = kind.codec.encode(choices)
    if kind.codec.decode(moves) != choices:
        raise Unmovable("its choices do not read back from their encoding")
    for deals in candidates:
        try:
            new, _ = _derived_record(kind, match, kind.codec.decode(moves), deals)
        except Exception:  # noqa: BLE001 - a deal that does not replay: try the next candidate
            continue
        if new == old:
            return moves, deals
    raise Unmovable("the record derived from its choices is not the record its rows gave")


def forwards(apps, schema_editor):
    from engine.games import game_type

    Match = apps.get_model("league", "Match")
    failures = []
    batch = []
    for match in Match.objects.exclude(offline=True).order_by("pk").iterator(chunk_size=BATCH):
        try:
            kind = game_type(match.game)
            match.moves, match.deals = _moved(apps, match, kind)
        except Exception as e:  # noqa: BLE001 - collected and reported together, below
            failures.append(f"match {match.pk} ({match.game}, {match.status}): {type(e).__name__}: {e}")
            continue
        if match.moves:
            batch.append(match)
        if len(batch) >= BATCH:
            Match.objects.bulk_update(batch, ["moves", "deals"])
            batch = []
    if batch:
        Match.objects.bulk_update(batch, ["moves", "deals"])
    if failures:
        raise RuntimeError("these matches' play could not be moved to compact storage without loss; nothing was "
                           "changed. Look into them (their old rows are intact) and run the migration again:\n"
                           + "\n".join(failures[:50]))


def backwards(apps, schema_editor):
    """Rebuild the old rows (rounds, tricks and Suit Actions; the newer games' choices) by replaying `moves`."""
    from engine.diamonds.cards import SUITS, card_str
    from engine.games import game_type

    Match = apps.get_model("league", "Match")
    MatchRound = apps.get_model("league", "MatchRound")
    Trick = apps.get_model("league", "Trick")
    SuitAction = apps.get_model("league", "SuitAction")
    MatchChoice = apps.get_model("league", "MatchChoice")
    MatchStep = apps.get_model("league", "MatchStep")
    for match in Match.objects.exclude(moves=b"").order_by("pk").iterator(chunk_size=BATCH):
        kind = game_type(match.game)
        choices = kind.codec.decode(bytes(match.moves))
        for step in MatchStep.objects.filter(match=match).order_by("first"):
            choices.extend(kind.codec.decode(bytes(step.choices)))
        _, game = _derived_record(kind, match, choices, match.deals)
        if match.game != "diamonds":
            MatchChoice.objects.bulk_create(MatchChoice(match=match, index=i, seat=seat, decision=d.to_json())
                                            for i, (seat, d) in enumerate(choices))
            continue
        for index, log in enumerate(game.rounds):
            if log.passes is not None:
                passes = [[card_str(c) for c in p] for p in log.passes]
            elif index == game.round and any(game.passed_by(s) is not None for s in range(game.n)):
                passes = [None if game.passed_by(s) is None else [card_str(c) for c in game.passed_by(s)]
                          for s in range(game.n)]
            else:
                passes = None
            MatchRound.objects.create(match=match, index=index, dealer=log.dealer,
                                      hands=[[card_str(c) for c in h] for h in log.hands],
                                      pass_count=log.pass_count, passes=passes,
                                      clubs_targets=list(log.clubs_targets))
            Trick.objects.bulk_create(
                Trick(match=match, round=index, index=j, leader=t.leader, winner=t.winner,
                      plays=[{"seat": p.seat, "card": card_str(p.card)} for p in t.plays])
                for j, t in enumerate(log.tricks) if t.plays)
            SuitAction.objects.bulk_create(
                SuitAction(match=match, round=index, sequence=k, trick=a.trick, seat=a.seat, suit=SUITS[a.suit],
                           cause=a.cause, target=a.target, moved=a.moved)
                for k, a in enumerate(log.actions))


class Migration(migrations.Migration):

    dependencies = [
        ("league", "0019_comparisons"),
    ]

    operations = [
        migrations.AddField(
            model_name="match",
            name="deals",
            field=models.JSONField(blank=True, editable=False, null=True,
                                   help_text="Each round's hands when they were given, not dealt from the seed."),
        ),
        migrations.AddField(
            model_name="match",
            name="moves",
            field=models.BinaryField(blank=True, default=b"", editable=False,
                                     help_text="The match's choices in order, compactly encoded (then its steps)."),
        ),
        migrations.CreateModel(
            name="MatchStep",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("first", models.PositiveIntegerField(help_text="The game's index of the step's first choice, from 0.")),
                ("choices", models.BinaryField(
                    help_text="The step's choices, compactly encoded (engine.common.compact).")),
                ("match", models.ForeignKey(db_index=False, on_delete=django.db.models.deletion.CASCADE,
                                            related_name="steps", to="league.match")),
            ],
            options={"ordering": ["match", "first"]},
        ),
        migrations.AddConstraint(
            model_name="matchstep",
            constraint=models.UniqueConstraint(fields=("match", "first"), name="match_step_unique"),
        ),
        migrations.RunPython(forwards, backwards, elidable=False),
        migrations.AlterField(
            model_name="matchseat",
            name="match",
            field=models.ForeignKey(db_index=False, on_delete=django.db.models.deletion.CASCADE,
                                    related_name="match_seats", to="league.match"),
        ),
        migrations.DeleteModel(name="MatchChoice"),
        migrations.DeleteModel(name="MatchRound"),
        migrations.DeleteModel(name="SuitAction"),
        migrations.DeleteModel(name="Trick"),
    ]
