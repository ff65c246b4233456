"""The host's web page: games, the running tally, orders with receipts, drafts, maps, role links.

`create_app(store, password)` builds the Flask app; `forumgm web` serves it on localhost. Every
page but the login and the players' role links needs the host's session; every POST carries the
session's CSRF token. Templates are autoescaped: nothing a player wrote is rendered as markup.
"""
from __future__ import annotations

import hashlib
import ipaddress
import logging
import math
import secrets
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping
from urllib.parse import urlsplit

from flask import Blueprint, Flask, abort, current_app, flash, redirect, render_template, request, send_file, url_for
from jinja2 import ChoiceLoader, FileSystemLoader, PrefixLoader
from markupsafe import Markup
from werkzeug.exceptions import SecurityError
from werkzeug.routing import IntegerConverter

from forumgm.config import data_path
from forumgm.daemon.drafts.phase_names import draft_label
from forumgm.daemon.drafts.pictures import MARK, RELEASED
from forumgm.daemon.host_actions.outcome_diff import earlier_edit_diff, text_diff
from forumgm.daemon.notify.attention import attention, waiting_groups
from forumgm.daemon.settings.games import shipped_rules
from forumgm.daemon.settings.secrets import web_password_problem
from forumgm.daemon.store import Store, StoreError
from forumgm.daemon.store.drafts import STATUS_LABELS
from forumgm.daemon.store.role_links import LinkUsed, RoleShown
from forumgm.daemon.tick.as_of import NoTally, post_id_of, tally_as_of
from forumgm.daemon.store.seats import addressee
from forumgm.daemon.tick.finish import may_change
from forumgm.daemon.tick.roles import roles_now
from forumgm.daemon.tick.signup_choices import KIND as ASSIGNMENT, AssignmentError, approve_assignment
from forumgm.daemon.web import game_queries, queries
from forumgm.daemon.web.host_routes import host
from forumgm.daemon.web.security import (HOST_ACTOR, check_csrf, csrf_token, log_in, log_out, login_required,
                                         same_secret)
from forumgm.daemon.web.throttle import GLOBAL_BUDGET, LoginThrottle
from forumgm.daemon.web.words import page_filters
from forumgm.engines.base import Rules
from forumgm.engines.texts import CompiledTemplates
from forumgm.engines.votecount import discard_lines, tally_rows
from forumgm.parsers.bbcode import to_phpbb_html
from forumgm.parsers.names import decline

# (werkzeug reads no IPv6 literal in a Host against its trusted names: the page is opened by these)
LOOPBACK_NAMES = ("localhost", "127.0.0.1")
STORE_INTEGER_MAX = 2 ** 63 - 1          # SQLite's largest integer
_COMPILED = CompiledTemplates()          # the pages' code, for every page app of the process
# Content the page never needs: scripts, frames, other origins.
SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; "
                               "form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}
log = logging.getLogger(__name__)

# what the host's buttons do to a draft, and the line shown after it
DONE = {
    "save": "Черновик №{id} сохранён.",
    "approve": "Черновик №{id} одобрен и будет отправлен.",
    "reject": "Черновик №{id} отклонён.",
}
ERRORS = {
    400: ("Неверный запрос", "Форма пришла неполной."),
    403: ("Форма устарела", "Страница была открыта в другом сеансе входа. Обновите её и повторите действие."),
    404: ("Не найдено", "Такой страницы нет."),
}
# the same of a feminine noun: «Квитанция №12 — отправлена»
STATUS_LABELS_FEMININE = {
    "approved": "одобрена",
    "sent": "отправлена",
    "rejected": "отклонена",
    "superseded": "заменена",
}

web = Blueprint("web", __name__)


def create_app(store: Store, password: str, games: Callable[[], Mapping[str, Any]] | None = None,
               public_url: str | None = None, host_names: Iterable[str] = LOOPBACK_NAMES) -> Flask:
    """`games`: the installation's games by id (tick.GameRun), for the host's actions (host_routes);
    `public_url`: the page's address as its users reach it (an https one makes the cookie Secure);
    `host_names`: the names the page answers to in a request's Host (page_host_names)."""
    problem = web_password_problem(password)
    if problem:
        raise ValueError(f"the web page needs {problem}")
    app = Flask(__name__)
    # The page's own templates, plus the shipped player texts under "texts/" (the Russian
    # labels of vote discard reasons are written once, in config/templates/votes/reasons.j2).
    app.jinja_loader = ChoiceLoader([
        FileSystemLoader(Path(__file__).parent / "templates"),
        PrefixLoader({"texts": FileSystemLoader(data_path("templates"))}),
    ])
    app.config.update(
        SECRET_KEY=secrets.token_bytes(32),   # sessions end with the process, by design
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Strict",
        SESSION_COOKIE_NAME="forumgm_session",
        # behind an https address the cookie must never travel in clear (a proxy may speak http to us)
        SESSION_COOKIE_SECURE=bool(public_url and public_url.lower().startswith("https://")),
        MAX_CONTENT_LENGTH=1024 * 1024,
        # Another name is refused (400) before any view runs: a web page the host visits could
        # otherwise point a name of its own at 127.0.0.1 (DNS rebinding) and talk to the page
        # as a site of that name, the browser's same-origin rule seeing no other site.
        TRUSTED_HOSTS=sorted(set(host_names)) or list(LOOPBACK_NAMES),    # (an empty list would trust all)
    )
    # a number in an address past SQLite's integers is no draft or map: 404, not a 500 from the store
    app.url_map.converters["int"] = StoreInteger
    app.extensions["forumgm"] = {"store": store, "password": password, "games": games or dict,
                                 "throttle": LoginThrottle(store.now)}
    app.jinja_env.bytecode_cache = _COMPILED
    app.jinja_env.globals["csrf_token"] = csrf_token
    app.jinja_env.globals["picture_mark"] = MARK
    # a PM drafted to a seat is shown by the account it goes to (forumgm replace)
    app.jinja_env.globals["addressee"] = lambda draft: addressee(store, draft)
    app.jinja_env.filters["status"] = status_label
    # a phase and a draft kind in the words of the game (`game_id`) they belong to
    app.jinja_env.filters["kind"] = lambda kind, game_id: draft_label(game_rules(game_id), kind)
    app.jinja_env.filters.update(page_filters(game_rules))     # phases, causes, actors, times in words
    app.jinja_env.filters["decline"] = decline        # the shared texts' templates (votes/reasons.j2) decline nicks
    # the draft as the forum will show it: the renderer escapes all text and allows only safe tags
    app.jinja_env.filters["bbcode"] = lambda body: Markup(to_phpbb_html(body))
    app.before_request(refuse_other_names)     # first: nothing else runs for another site's name
    app.before_request(check_csrf)
    app.after_request(add_security_headers)
    app.register_blueprint(web)
    app.register_blueprint(host)
    for code in ERRORS:
        app.register_error_handler(code, show_error)
    app.register_error_handler(SecurityError, wrong_host)
    return app


class StoreInteger(IntegerConverter):
    def __init__(self, url_map, *args, **kwargs) -> None:
        super().__init__(url_map, *args, **{"max": STORE_INTEGER_MAX, **kwargs})


def page_host_names(bound: str, public_url: str | None) -> set[str]:
    """The names a request may give in its Host: the address the page is bound to, the host of its
    public address, and the loopback's own names where the page is reached on the loopback (bound
    to it, or to every address)."""
    everywhere = bound in ("0.0.0.0", "::", "")
    names = set() if everywhere else {bound}
    if public_url and urlsplit(public_url).hostname:
        names.add(urlsplit(public_url).hostname)
    try:
        loopback = everywhere or ipaddress.ip_address(bound).is_loopback
    except ValueError:
        loopback = bound == "localhost"
    return names | set(LOOPBACK_NAMES) if loopback else names


def refuse_other_names() -> None:
    """A Host the page does not answer to is found while routing; answered before the CSRF check."""
    if isinstance(request.routing_exception, SecurityError):
        raise request.routing_exception


def wrong_host(error):
    log.warning("web page: a request for %r refused (not a name the page answers to)", request.environ.get("HTTP_HOST"))
    return ("This page answers only at its own address (forumgm.toml: [web] host, public_url).\n", 400,
            {"Content-Type": "text/plain; charset=utf-8"})


def store() -> Store:
    return current_app.extensions["forumgm"]["store"]


def game_rules(game_id: str) -> Rules | None:
    """The engine of a stored game, for its labels; None for a game this forumgm has no engine for."""
    row = store().game(game_id)
    return None if row is None else shipped_rules(row["type"])


def status_label(status: str, gender: str = "m") -> str:
    """A draft's status as the page says it, agreeing with the noun (gender "f" for «квитанция»)."""
    if gender == "f" and status in STATUS_LABELS_FEMININE:
        return STATUS_LABELS_FEMININE[status]
    return STATUS_LABELS.get(status, status)


def show_error(error):
    title, text = ERRORS[error.code]
    return render_template("error.html", title=title, text=text), error.code


def add_security_headers(response):
    response.headers.update(SECURITY_HEADERS)
    return response


# ---------------------------------------------------------------- login

@web.route("/login", methods=["GET", "POST"])
def login():
    if request.method == "POST":
        address = request.remote_addr or "unknown"
        throttle = current_app.extensions["forumgm"]["throttle"]
        wait = throttle.wait(address)
        if wait is not None:      # refused unread: a pause makes guessing slow, whatever is tried
            seconds = math.ceil(wait.total_seconds())
            flash(f"Слишком много неверных паролей: попробуйте через {seconds} с.", "error")
            return render_template("login.html"), 429, {"Retry-After": str(seconds)}
        if same_secret(request.form.get("password", ""), current_app.extensions["forumgm"]["password"]):
            throttle.succeeded(address)
            log_in()
            store().audit(HOST_ACTOR, "web.login", {"address": address})
            return redirect(url_for("web.games"))
        failure = throttle.failed(address)
        store().audit("web", "web.login_failed", {"address": request.remote_addr})
        if failure.over_budget:
            until = store().now() + failure.wait
            log.warning("web page: more than %d wrong passwords in the last hour (the last from %s): every "
                        "login waits until %s", GLOBAL_BUDGET, address, until.isoformat(timespec="seconds"))
            store().audit("web", "web.password_budget", {"address": address, "until": until.isoformat()})
        flash("Неверный пароль.", "error")
        return render_template("login.html"), 401
    return render_template("login.html")


@web.post("/logout")
def logout():
    log_out()
    return redirect(url_for("web.login"))


# ---------------------------------------------------------------- games

@web.get("/")
@login_required
def games():
    return render_template("games.html", games=queries.games(store()), sent_notes=store().sent_space_notes(),
                           **attention_box())


def attention_box(game_id: str | None = None) -> dict:
    """The attention box's context: what waits for the host (in one game), now, the games he may act on."""
    facts = attention(store(), lambda game: shipped_rules(game["type"]), None if game_id is None else (game_id,))
    return {"facts": facts, "now": store().now(), "runs": set(current_app.extensions["forumgm"]["games"]())}


@web.get("/games/<game_id>")
@login_required
def game(game_id: str):
    row = store().game(game_id)
    if row is None:
        abort(404)
    run = current_app.extensions["forumgm"]["games"]().get(game_id)    # None: served without the installation
    phases = game_queries.phases(store(), game_id)
    view = queries.game_view(store(), row)
    roles = roles_now(store(), game_id, run.rules if run is not None else game_rules(game_id))
    return render_template(
        "game.html",
        game=view,
        finished=next((stop for stop in view.stops if stop.finished), None),
        **attention_box(game_id),
        tally=queries.running_tally(store(), game_id, run),
        orders=queries.orders_with_receipts(store(), game_id),
        maps=queries.map_images(store(), game_id),
        players=game_queries.players(store(), game_id),
        vote_corrections=game_queries.vote_corrections(store(), game_id),
        phases=phases,
        report_images={report["id"]: queries.draft_images(store(), report) for phase in phases for report in phase.reports},
        roles=roles,
        position=game_queries.latest_report(store(), game_id, getattr(game_rules(game_id), "position_report", None)),
        winners=game_queries.winner_names(store(), game_id, roles),
        audit=game_queries.audit(store(), game_id),
        row=row,
        actions=run is not None,
        correctable=run is not None and may_change(store(), game_id),
        vote_links=game_queries.vote_links(store(), game_id, run),
    )


@web.get("/games/<game_id>/votes/as-of")
@login_required
def votes_as_of(game_id: str):
    """The thread votes as they stood right after one post (the «как на момент сообщения» control)."""
    run = current_app.extensions["forumgm"]["games"]().get(game_id)
    if store().game(game_id) is None or run is None:
        abort(404)
    asked = request.args.get("post", "").strip()[:200]
    seen, no = None, None
    try:
        seen = tally_as_of(run, store(), post_id_of(asked))
    except NoTally as error:
        no = error
    rows = tally_rows(seen.tally, run.post_url) if seen else []
    discards = discard_lines(seen.tally, run.post_url) if seen else []
    return render_template("votes_as_of.html", game_id=game_id, asked=asked, seen=seen, no=no, rows=rows,
                           discards=discards, zone=run.config.time_zone), 200 if seen else 404


@web.get("/games/<game_id>/maps/<int:draft_id>/<int:index>")
@login_required
def map_file(game_id: str, draft_id: int, index: int):
    image = queries.map_image(store(), game_id, draft_id, index)
    if image is None:
        abort(404)
    return send_file(image.path, mimetype=image.media_type)


@web.get("/maps/<game_id>/<int:draft_id>/<int:index>")
def public_map(game_id: str, draft_id: int, index: int):
    """A turn map as the forum's readers load it (the posted report links here): without a
    password, and only once the host has approved its draft."""
    image = queries.map_image(store(), game_id, draft_id, index)
    if image is None or store().draft(draft_id)["status"] not in RELEASED:
        abort(404)
    return send_file(image.path, mimetype=image.media_type)


# ---------------------------------------------------------------- drafts

@web.get("/drafts")
@login_required
def drafts():
    pending = store().drafts(status="pending")
    return render_template(
        "drafts.html",
        pending=pending,
        groups=[group for group in waiting_groups(pending) if group.all_at_once],
        edits={draft["id"]: store().draft_edits(draft["id"]) for draft in pending},
        last_change={draft["id"]: game_queries.last_edit_diff(store(), draft) for draft in pending},
        earlier_edit={draft["id"]: earlier_edit_diff(draft) for draft in pending},
        images={draft["id"]: queries.draft_images(store(), draft) for draft in pending},
        approved=store().drafts(status="approved") + store().drafts(status="sending"),
        sent=store().drafts(status="sent")[::-1],
    )


@web.post("/drafts/approve-all")
@login_required
def approve_group():
    """Approve every draft of a group the host saw listed (its ids come with the form): a draft added
    since, or one decided meanwhile, is left as it is."""
    try:
        ids = [int(part) for part in request.form.get("ids", "").split(",") if part]
    except ValueError:
        abort(400)
    if not ids or not all(0 < draft_id <= STORE_INTEGER_MAX for draft_id in ids):
        abort(400)
    approved = 0
    with store().transaction():
        for draft_id in ids:
            try:
                if store().draft(draft_id)["status"] != "pending":
                    continue    # decided meanwhile
                store().approve(draft_id, by=HOST_ACTOR)
            except StoreError:
                continue    # no such draft
            approved += 1
    flash(f"Одобрено черновиков: {approved} из {len(ids)}.", "ok" if approved == len(ids) else "error")
    return redirect(url_for("web.drafts"))


@web.post("/drafts/<int:draft_id>")
@login_required
def decide_draft(draft_id: int):
    """Preview the edited text (nothing saved), save it, approve (what the host sees, edits included)
    or reject one draft."""
    action = request.form.get("action")
    if action not in DONE and action != "preview":
        abort(400)
    body = request.form.get("body")
    if body is not None:
        body = body.replace("\r\n", "\n")   # browsers send textarea lines CRLF-separated
    if action == "preview":
        return preview_draft(draft_id, body)
    if action == "save" and changed_since(draft_id, request.form.get("seen")):
        flash(f"Черновик №{draft_id} не сохранён: его текст изменился после предпросмотра. "
              "Посмотрите новый текст и повторите правку.", "error")
        return redirect(url_for("web.drafts", _anchor=f"draft-{draft_id}"))
    try:
        assignment = action == "approve" and store().draft(draft_id)["kind"] == ASSIGNMENT
        with store().transaction():
            if action != "reject" and body is not None and body != store().draft(draft_id)["body"]:
                store().edit_draft(draft_id, body, by=HOST_ACTOR)
            if action == "approve" and not assignment:
                store().approve(draft_id, by=HOST_ACTOR)
            elif action == "reject":
                store().reject(draft_id, by=HOST_ACTOR)
        if assignment:      # after the edit is saved: a wrong line refuses the approval, not the edit
            game = current_app.extensions["forumgm"]["games"]()[store().draft(draft_id)["game_id"]]
            approve_assignment(store(), game.config, game.rules, draft_id, by=HOST_ACTOR)
    except StoreError as error:
        flash(f"Не сделано: {error}.", "error")
    except AssignmentError as error:
        flash(f"Черновик №{draft_id} не одобрен, игроки не записаны: {error}.", "error")
    else:
        flash(DONE[action].format(id=draft_id), "ok")
    return redirect(url_for("web.drafts"))


def preview_draft(draft_id: int, body: str | None):
    """The edited text as the forum would show it and its difference from the current version;
    nothing is saved: the page's save button posts the same text back (with the version it was
    compared against, so that a draft changed meanwhile is not overwritten unseen)."""
    if body is None:
        abort(400)
    try:
        draft = store().draft(draft_id)
    except StoreError:
        abort(404)
    if draft["status"] != "pending":
        flash(f"Черновик №{draft_id} уже не ожидает решения.", "error")
        return redirect(url_for("web.drafts"))
    return render_template("draft_preview.html", draft=draft, body=body, diff=text_diff(draft["body"], body),
                           seen=version_digest(draft["body"]), images=queries.draft_images(store(), draft))


def version_digest(body: str) -> str:
    return hashlib.sha256(body.encode("utf-8")).hexdigest()[:16]


def changed_since(draft_id: int, seen: str | None) -> bool:
    """The draft's text is no longer the version a preview compared against."""
    if not seen:
        return False
    try:
        return seen != version_digest(store().draft(draft_id)["body"])
    except StoreError:
        return False    # no such draft: saving says so



# ---------------------------------------------------------------- players' role links

@web.get("/role/<token>")
def role(token: str):
    if request.method == "HEAD":        # a link previewer's look: the player's own GET claims the link
        return "", 200 if store().peek_role_link(token) else 404
    result = store().open_role_link(token)
    if isinstance(result, RoleShown):
        return render_template("role.html", role=result)
    status = 410 if isinstance(result, LinkUsed) else 404
    return render_template("role.html", role=None, used=isinstance(result, LinkUsed)), status
