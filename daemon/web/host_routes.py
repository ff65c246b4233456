"""The host's actions on the web page: the same functions as the `forumgm` sub-commands
(forumgm.daemon.host_actions), behind the login and the CSRF token every POST carries.

The app knows the installation's games through `games()` (id -> tick.GameRun, built afresh per
request so that a replaced player is seen at once); a page served without an installation shows
the games but offers no actions.
"""
from __future__ import annotations

from flask import Blueprint, abort, current_app, flash, redirect, render_template, request, url_for

from forumgm.daemon.drafts.phase_names import phase_label
from forumgm.daemon.host_actions.correct import annul as annul_vote, correct as correct_input
from forumgm.daemon.host_actions.correct_vote import VoteCorrection
from forumgm.daemon.host_actions.deadline import move_deadline
from forumgm.daemon.host_actions.pause import pause_game, resume_game
from forumgm.daemon.host_actions.replace import replace_player
from forumgm.daemon.host_actions.rerun import confirm_rerun, preview_rerun
from forumgm.daemon.settings.local_time import parse_moment, parse_span
from forumgm.daemon.store import Store, StoreError
from forumgm.daemon.tick.finish import EngineFinished, finish_game
from forumgm.daemon.tick.rules_freeze import accept_change
from forumgm.daemon.web.security import HOST_ACTOR, login_required

host = Blueprint("host", __name__)


def store() -> Store:
    return current_app.extensions["forumgm"]["store"]


def game_run(game_id: str):
    game = current_app.extensions["forumgm"]["games"]().get(game_id)
    if game is None:
        abort(404)
    return game


def back(game_id: str, anchor: str = "actions"):
    return redirect(url_for("web.game", game_id=game_id, _anchor=anchor))


def field(name: str) -> str:
    value = request.form.get(name)
    if value is None:
        abort(400)
    return value.replace("\r\n", "\n")


def _done(game_id: str, action, message: str, anchor: str = "actions"):
    """Run one host action; its refusal is shown to the host as it is, nothing half done."""
    try:
        action()
    except (StoreError, ValueError) as error:
        flash(f"Не сделано: {error}", "error")
    else:
        flash(message, "ok")
    return back(game_id, anchor)


@host.post("/games/<game_id>/correct")
@login_required
def correct(game_id: str):
    """The correction form: the text as the player's orders or vote, or (its second button) his vote
    in the thread annulled."""
    game = game_run(game_id)
    phase, nick = field("phase"), field("nick")
    try:
        if request.form.get("annul"):
            done = annul_vote(game, store(), phase, nick, HOST_ACTOR, store().now())
        else:
            done = correct_input(game, store(), phase, nick, field("text"), HOST_ACTOR, store().now())
    except (StoreError, ValueError) as error:
        flash(f"Не сделано: {error}", "error")
        return back(game_id)
    named = phase_label(game.rules, phase)
    if isinstance(done, VoteCorrection):
        if done.annulled:
            flash(f"Голос игрока {done.player} ({named}) аннулирован: его голос в теме не засчитывается.", "ok")
        else:
            flash(f"Голос игрока {done.player} ({named}) исправлен: за {done.vote.target}.", "ok")
        _tell_redrafts(done)
        return back(game_id, "tally")
    flash(f"Приказы игрока {nick} ({named}) исправлены; новая квитанция в черновиках.", "ok")
    return back(game_id, "orders")


def _tell_redrafts(done: VoteCorrection) -> None:
    """What became of the running vote counts drafted before the correction."""
    for old, new in done.redrafted:
        flash(f"Черновик подсчёта голосов №{old} составлен заново с новым подсчётом: №{new}.", "ok")
    for kept in done.kept:
        flash(f"Черновик подсчёта голосов №{kept.id} вы правили, поэтому он оставлен как есть и считает голоса "
              "без этого исправления: поправьте или отклоните его (следующий подсчёт покажет изменение).", "error")


@host.get("/games/<game_id>/phases/<phase_key>/rerun")
@login_required
def rerun_preview(game_id: str, phase_key: str):
    game = game_run(game_id)
    try:
        diff = preview_rerun(game, store(), phase_key, store().now())
    except StoreError as error:
        flash(f"Пересчёт невозможен: {error}", "error")
        return back(game_id, "phases")
    return render_template("rerun.html", game_id=game_id, phase_key=phase_key, diff=diff)


@host.post("/games/<game_id>/phases/<phase_key>/rerun")
@login_required
def rerun_confirm(game_id: str, phase_key: str):
    game = game_run(game_id)
    try:
        done = confirm_rerun(game, store(), phase_key, HOST_ACTOR, store().now(), expected=field("digest"))
    except StoreError as error:
        flash(f"Пересчёт не сделан: {error}", "error")
        return redirect(url_for("host.rerun_preview", game_id=game_id, phase_key=phase_key))
    flash(f"Пересчитано: {', '.join(phase_label(game.rules, rerun.phase) for rerun in done.phases)}; "
          "новые черновики ждут решения.", "ok")
    if done.reopened:
        flash(f"Игра продолжается: {phase_label(game.rules, done.reopened)}. Она на паузе: назначьте дедлайн и продолжите игру.",
              "error")
        return back(game_id)
    return redirect(url_for("web.drafts"))


@host.post("/games/<game_id>/deadline")
@login_required
def deadline(game_id: str):
    game = game_run(game_id)
    extend, moment = request.form.get("extend", "").strip(), request.form.get("set", "").strip()

    def move():
        zone = game.config.time_zone
        if bool(extend) == bool(moment):
            raise ValueError("укажите либо на сколько сдвинуть дедлайн (2ч, -30 мин), либо новое время")
        move_deadline(store(), game_id, HOST_ACTOR, store().now(), zone,
                      extend=parse_span(extend) if extend else None,
                      to=parse_moment(moment, zone) if moment else None)

    return _done(game_id, move, "Дедлайн перенесён.")


@host.post("/games/<game_id>/pause")
@login_required
def pause(game_id: str):
    game_run(game_id)
    return _done(game_id, lambda: pause_game(store(), game_id, HOST_ACTOR, store().now()), "Игра на паузе.")


@host.post("/games/<game_id>/resume")
@login_required
def resume(game_id: str):
    game_run(game_id)
    return _done(game_id, lambda: resume_game(store(), game_id, HOST_ACTOR), "Игра продолжается.")


@host.post("/games/<game_id>/replace")
@login_required
def replace(game_id: str):
    game = game_run(game_id)
    old, new = field("old"), field("new")
    gender = request.form.get("gender") or None          # «по нику»: guessed from the nick
    return _done(game_id, lambda: replace_player(game, store(), old, new, HOST_ACTOR, store().now(), gender),
                 f"{new.strip()} играет вместо {old}.")


@host.post("/games/<game_id>/rules/accept")
@login_required
def accept_rules(game_id: str):
    """The game goes on under the [rules] its file has now (`forumgm rules accept`)."""
    game = game_run(game_id)

    def accept():
        if accept_change(game, store(), by=HOST_ACTOR) is None:
            raise ValueError("правила игры не менялись или игра ещё не началась: принимать нечего")

    return _done(game_id, accept, "Новые правила приняты: игра продолжается по ним.", anchor="attention")


@host.post("/games/<game_id>/finish")
@login_required
def finish(game_id: str):
    game = game_run(game_id)
    winner, force = field("winner"), bool(request.form.get("force"))

    def end():
        try:
            finish_game(game, store(), winner, HOST_ACTOR, store().now(), force=force)
        except EngineFinished as error:
            raise StoreError(f"{error}: чтобы всё же назвать «{error.winner}», отметьте «вопреки правилам игры» "
                             "и закончите игру снова") from None

    return _done(game_id, end, "Игра окончена; объявление об итогах в черновиках.")
