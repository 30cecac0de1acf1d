"""Live play over HTTP, in the manner of the Lichess Bot API: a seat's view of a match, its legal decisions, one
POST per decision, and one long-poll that tells an account (a person or an external bot) which matches await it.

Refusals are plain HTTP: 400 for malformed input or a decision the rules refuse (with the rule id), 403 for a seat
that is not the caller's, 404 for an unknown match, 409 for a stale or repeated move number or a match that is over,
429 past the rate limit.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import OperationalError
from django.http import Http404, JsonResponse
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.exceptions import ParseError, PermissionDenied
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from league.aio import run_sync
from league.models import Match, MatchSeat
from league.models.match import IN_PLAY
from league.refusals import refusal_text
from league.selectors.clocks import match_clocks
from league.selectors.deals import deal_still_in_play, result_withheld
from league.selectors.live import (
    await_turns,
    caller_seats_with_match,
    legal_decisions,
    match_game,
    public_state,
    seat_state,
    seats_of_user,
    turns_of_user,
)
from league.selectors.matches import matches
from league.services.decisions import DecisionRefused, submit_user_decision
from league.services.presence import note_seen

from .errors import ErrorSerializer, error_response
from .permissions import ReadOnlyOrAuthenticated
from .serializers import (
    DecisionRequestSerializer,
    DecisionResultSerializer,
    LegalSerializer,
    TurnsSerializer,
)
from .throttling import DecisionThrottle
from .waits import give_back, take_slot

SEAT_PARAM = OpenApiParameter("seat", int, description="Which of the caller's seats (only if it holds several).")
E400 = OpenApiResponse(ErrorSerializer, description="Malformed input, or a decision the rules refuse (`rule`).")
E403 = OpenApiResponse(ErrorSerializer, description="The seat is not the caller's.")
E404 = OpenApiResponse(ErrorSerializer, description="No such match.")
E409 = OpenApiResponse(ErrorSerializer, description="Stale or repeated move number, the match is not in play, or "
                                                    "the seat forfeited or ran out of time on its clock.")
E429 = OpenApiResponse(ErrorSerializer, description="Too many writes: see Retry-After.")


def refused(e: DecisionRefused) -> Response:
    return error_response(refusal_text(e.rule, e.message), e.code, e.status, rule=e.rule)


def _int_param(value, name: str) -> int | None:
    if value in (None, ""):
        return None
    try:
        return int(value)
    except (TypeError, ValueError):
        raise ParseError(_("%(name)s must be an integer") % {"name": name}) from None


def refuse_spectator_of_shared_deal(match: Match) -> None:
    if deal_still_in_play(match):
        raise PermissionDenied(_("match %(match)s is a duplicate table whose deal other tables are still playing: "
                                 "only its own seats see its play until the round closes") % {"match": match.pk})


def refuse_while_result_withheld(match: Match) -> None:
    """403, for everyone (its own seats too), for what would tell how a comparison game went before its pair has
    ended (league.selectors.deals.result_withheld)."""
    if result_withheld(match):
        raise PermissionDenied(_("match %(match)s is a comparison's game whose twin is still being played: how it "
                                 "went is shown once the pair has ended") % {"match": match.pk})


def withheld_state(match: Match) -> dict[str, Any]:
    """What state/ answers for a comparison game that has ended while its twin is played: that it is over, and
    nothing of how (the final view would show the scores and every hand)."""
    return {"match": match.pk, "game": match.game, "status": match.status, "over": True, "result_withheld": True,
            "move_number": match.move_number, "pending": None, "my_turn": False, "deadline_at": None}


def caller_seat(request, match: Match, requested: int | None) -> MatchSeat | None:
    """The caller's seat at the match: the one asked for (403 if it is not theirs), else the one awaited, else the
    first; None for a spectator."""
    return pick_seat(match.pk, seats_of_user(match, request.user), requested)


def pick_seat(match_id: int, mine: list[MatchSeat], requested: int | None) -> MatchSeat | None:
    """caller_seat's choice among the caller's seats `mine` (in seat order)."""
    if requested is not None:
        for ms in mine:
            if ms.seat == requested:
                return ms
        raise PermissionDenied(_("seat %(seat)s of match %(match)s is not yours") % {"seat": requested,
                                                                                     "match": match_id})
    if not mine:
        return None
    return next((ms for ms in mine if ms.awaiting), mine[0])


class MatchStateView(APIView):
    permission_classes = [ReadOnlyOrAuthenticated]

    @extend_schema(
        summary="What the caller's seat may see (a spectator: the public table)",
        description="The engine's SeatView of the match's game (`game`). Diamonds: the seat's own hand and vault, "
                    "every showroom, the Thief, the cards played, the pending decision and the seat's legal "
                    "options; a caller without a seat here gets the same without any hand, vault or pass; other "
                    "seats' hands and vaults appear only once the game is over. Diamoniak: the whole table but the "
                    "draw pile's order; the ring race: the board as the table knows it (loose and fixed positions "
                    "hidden until the end), the rings, the card shown. Spectators of a duplicate table whose deal "
                    "other tables still play get 403. A comparison's game that has ended while its twin is still "
                    "played answers only that it is over (`over`, `result_withheld`: true), to its own seats too, "
                    "until the pair has ended. `clock` is the match's chess clocks (null without one): each clocked "
                    "seat's `remaining_ms` at `server_time`, `running` for the seats whose time is going.",
        parameters=[SEAT_PARAM],
        responses={200: OpenApiTypes.OBJECT, 400: E400, 403: E403, 404: E404},
    )
    def get(self, request, pk: int):
        match = get_object_or_404(matches(), pk=pk)
        seat = caller_seat(request, match, _int_param(request.query_params.get("seat"), "seat"))
        if seat is None:
            refuse_spectator_of_shared_deal(match)
        if result_withheld(match):
            return Response(withheld_state(match))
        game = match_game(match)
        data = seat_state(game, seat.seat) if seat is not None else public_state(game)
        data["match"] = match.pk
        data["status"] = match.status
        data["deadline_at"] = match.deadline_at
        data["clock"] = match_clocks(match)
        return Response(data)


class MatchLegalView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        summary="The decisions the caller's seat may make now",
        description="Each as the `decision` JSON that POST decisions/ takes (the game's own); for Diamonds' "
                    "passing, the cards to choose `count` of. `clock`: the match's chess clocks (null without one), "
                    "so a bot knows the time it has left.",
        parameters=[SEAT_PARAM],
        responses={200: LegalSerializer, 400: E400, 401: E403, 403: E403, 404: E404},
    )
    def get(self, request, pk: int):
        # The caller's seats and the match in one read (a player's client asks this before every decision); only a
        # caller without a seat here costs a second, to tell an unknown match (404) from someone else's (403).
        mine = caller_seats_with_match(pk, request.user.pk)
        if not mine:
            get_object_or_404(matches(), pk=pk)
        requested = _int_param(request.query_params.get("seat"), "seat")
        seat = pick_seat(pk, mine, requested)
        if seat is None:
            raise PermissionDenied(_("you have no seat at match %(match)s") % {"match": pk})
        # The row was read just now, so its move number names the stored game as well as a fresh read would.
        legal = legal_decisions(match_game(seat.match, just_read=True), seat.seat)
        if seat.match.status not in IN_PLAY:
            # Cancelled or failed: the game stopped where it was, and nobody is to decide (a bot asking in a loop
            # would only hear 409s).
            legal.update(my_turn=False, decisions=[], pass_cards=None)
        legal["clock"] = match_clocks(seat.match)
        return Response(legal)


class MatchDecisionView(APIView):
    permission_classes = [IsAuthenticated]
    throttle_classes = [DecisionThrottle]

    @extend_schema(
        summary="Make the caller's seat's decision",
        description="`move_number` is the state's move number the decision answers (from state/ or legal/): a "
                    "stale or repeated one is refused with 409 and changes nothing. While cards are passed, every "
                    "move since the pass count was chosen is current for a seat that has not passed yet. The answer's "
                    "`legal` is what GET legal/ would answer now for the first of the caller's seats that the match "
                    "awaits (null if none is): a bot that holds it can decide again without asking. A seat whose chess "
                    "clock has run out is refused (409, code `out_of_time`) and the table's `deadline_action` "
                    "applies at once.",
        request=DecisionRequestSerializer,
        responses={201: DecisionResultSerializer, 400: E400, 401: E403, 403: E403, 404: E404, 409: E409,
                   429: E429},
    )
    def post(self, request, pk: int):
        body = request.data
        if not isinstance(body, dict):
            raise ParseError(_("the body is a JSON object: {\"move_number\": N, \"decision\": {...}}"))
        if "move_number" not in body or "decision" not in body:
            raise ParseError(_("the body needs 'move_number' and 'decision'"))
        unknown = sorted(set(body) - {"move_number", "decision", "seat"})
        if unknown:  # refused, not ignored: a misspelt `seat` would otherwise play the caller's other seat
            raise ParseError(_("a decision's body has no %(keys)s; it has 'move_number', 'decision' and (for an "
                               "account with several seats) 'seat'") % {"keys": ", ".join(map(repr, unknown))})
        requested = _int_param(body.get("seat"), "seat")
        note_seen(request.user.pk, playing=True)  # an external bot is there (at most a write a minute)
        try:
            # The match, the caller's seat and the decision are all checked under the match's lock, in one
            # transaction that reads the match and its seats once (league.services.decisions).
            outcome = submit_user_decision(match_id=pk, user=request.user, move_number=body["move_number"],
                                           decision_json=body["decision"], seat=requested)
        except Match.DoesNotExist:
            raise Http404("No Match matches the given query.") from None
        except DecisionRefused as e:
            return refused(e)
        # The answer's `legal` is what GET legal/ would answer now, the clocks included.
        legal = None if outcome.legal is None else {**outcome.legal, "clock": outcome.clock}
        return Response({"match": outcome.match_id, "seat": outcome.seat, "move_number": outcome.move_number,
                         "pending": outcome.pending, "over": outcome.over, "legal": legal,
                         "clock": outcome.clock}, status=201)


class WaitForTurns(Response):
    """MyTurnsView's answer when the caller owes nothing yet and asked to wait: `my_turns` does the waiting."""

    renderer_context: dict[str, Any]  # set by APIView.finalize_response: the view and its DRF request

    def __init__(self, user_id: int, seconds: float):
        super().__init__({"turns": [], "waited": 0.0})
        self.user_id, self.seconds = user_id, seconds


class MyTurnsView(APIView):
    """The long-poll's synchronous parts (authentication, its parameters, reading the turns); the waiting itself is
    `my_turns`'s, a coroutine, so that a waiting bot holds no server thread."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        summary="Long-poll: the matches awaiting the caller's decision",
        description="Answers at once if some match awaits one of the caller's players, else waits up to `wait` "
                    "seconds (at most DIAMONDS_TURNS_MAX_WAIT, 60 by default) for one, then answers with an empty "
                    "list. An external bot loops on this, then reads state/ and POSTs decisions/: polling is what "
                    "tells the league it is there (ladders seat an external bot only while it polls). An account may "
                    "have DIAMONDS_TURNS_WAITS_PER_ACCOUNT (8 by default) of these waiting at once: past that, "
                    "429 at once.",
        parameters=[OpenApiParameter("wait", float, description="Seconds to wait for a turn (0: answer at once)."),
                    OpenApiParameter("legal", bool, description="1: each turn carries its seat's legal decisions "
                                     "(as GET legal/ answers them), so a bot decides without another request.")],
        responses={200: TurnsSerializer, 400: E400, 401: E403,
                   429: OpenApiResponse(ErrorSerializer, description="The account has its most long-polls "
                                        "waiting already: see Retry-After.")},
    )
    def get(self, request):
        wait = request.query_params.get("wait", "0")
        try:
            wait = float(wait)
        except ValueError:
            raise ParseError(_("wait must be a number of seconds")) from None
        if not 0 <= wait < float("inf"):
            raise ParseError(_("wait must be a number of seconds"))
        with_legal = request.query_params.get("legal", "0")
        if with_legal not in ("0", "1", "true", "false"):
            raise ParseError(_("legal is 1 (each turn carries its legal decisions) or 0"))
        turns = turns_of_user(request.user)
        # Polling is how an external bot is there (league.selectors.presence): noted, at most about once a minute.
        note_seen(request.user.pk, playing=bool(turns))
        wait = min(wait, settings.DIAMONDS_TURNS_MAX_WAIT)
        if not turns and wait > 0:
            return WaitForTurns(request.user.pk, wait)
        return self.answer(request, turns, waited=0.0)

    def answer(self, request, turns, *, waited: float) -> Response:
        with_legal = request.query_params.get("legal", "0") in ("1", "true")
        answer = TurnsSerializer({"turns": turns, "waited": round(waited, 3)}).data
        for turn, row in zip(turns, answer["turns"]):
            # The match row was read with the turn a moment ago: its move number names the stored game. Only the
            # caller's own seats are turns, so a legal answer never shows another seat's hand.
            row["legal"] = ({**legal_decisions(match_game(turn.match, just_read=True), turn.seat),
                             "clock": match_clocks(turn.match)} if with_legal else None)  # as GET legal/ answers
        return Response(answer)

    def answer_after_wait(self, request, waited: float) -> Response:
        """The answer once `my_turns` has waited: the request as DRF authenticated it in the first pass."""
        return self.finalize_response(request, self.answer(request, turns_of_user(request.user), waited=waited))


_turns_view = MyTurnsView.as_view()


@csrf_exempt  # as DRF's own views: a session's CSRF check is DRF's (and this is a GET)
async def my_turns(request):
    """GET /api/v1/me/turns/: MyTurnsView answers at once, or hands over the wait, which happens here without a
    thread: the account's slot (the cap), then league.selectors.live.await_turns, then MyTurnsView's answer."""
    response = await run_sync(_turns_view, request)
    if not isinstance(response, WaitForTurns):
        return response
    slot = await take_slot(response.user_id, response.seconds)
    if slot is None:
        cap = settings.DIAMONDS_TURNS_WAITS_PER_ACCOUNT
        refusal = JsonResponse({"detail": _("this account already has %(cap)s long-polls waiting: wait for one of "
                                            "them to answer before opening another") % {"cap": cap},
                                "code": "too_many_waits"}, status=429)
        refusal["Retry-After"] = "1"
        return refusal
    try:
        waited = await await_turns(response.user_id, wait=response.seconds)
    finally:
        await give_back(response.user_id, slot)
    # The same view and DRF request as the first pass (finalize_response kept them): no second authentication.
    view, drf_request = response.renderer_context["view"], response.renderer_context["request"]
    try:
        return await run_sync(view.answer_after_wait, drf_request, waited)
    except OperationalError:
        # The pool had no connection in time (the server is overloaded): say so, and when to come back.
        busy = JsonResponse({"detail": "the server is busy: ask again", "code": "busy"}, status=503)
        busy["Retry-After"] = "2"
        return busy


# drf-spectacular documents the route from the DRF view behind it, through the attributes DRF's as_view() gives a
# view (initkwargs is Django's view_initkwargs); mypy types no attribute set on a function.
my_turns.cls = MyTurnsView  # type: ignore[attr-defined]
my_turns.initkwargs = _turns_view.view_initkwargs  # type: ignore[attr-defined]
