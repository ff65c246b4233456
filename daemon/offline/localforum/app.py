"""The local forum's HTTP side: phpBB 3.3 URLs, forms and markup over a Board."""
from __future__ import annotations

import math
import re
import secrets
from datetime import timezone

from flask import Flask, Response, redirect, render_template, request
from markupsafe import Markup, escape

from forumgm.daemon.offline.localforum.board import (
    PMS_PER_PAGE, Board, BoardError, BoardPost, PrivateMessage, User,
)
from forumgm.engines.texts import CompiledTemplates
from forumgm.parsers.bbcode import phpbb_date, to_phpbb_html

SID_COOKIE = "phpbb3_local_sid"
ADMIN_COLOUR = "#AA0000"
SENTBOX = -1
FOLDER_NAMES = {SENTBOX: "sentbox", -2: "outbox"}   # phpBB's folder ids of what the account sent
_ADDRESS = re.compile(r"^address_list\[u\]\[(\d+)\]$")
_COMPILED = CompiledTemplates()          # the pages' code, for every board app of the process


def create_app(board: Board) -> Flask:
    app = Flask(__name__)
    app.jinja_env.bytecode_cache = _COMPILED
    app.jinja_env.globals["username"] = _username

    def page(template: str, status: int = 200, **values) -> Response:
        sid, me = _session(board)
        unread = sum(m.unread for m in board.inbox(me.id)) if me else 0
        html = render_template(template, board=board, me=me, sid=sid, unread=unread,
                               redirect_here=escape(request.full_path.lstrip("/")),
                               **{"refresh": None, **values})
        response = Response(html, status=status, content_type="text/html; charset=UTF-8")
        response.set_cookie(SID_COOKIE, sid, httponly=True)
        if board.etags and request.method == "GET":
            response.add_etag()
            response.make_conditional(request)
        return response

    def message(title: str, text: str, status: int = 200, refresh: str | None = None) -> Response:
        return page("message.html", status=status, page_title=title, section="message",
                    message_title=title, message=text, refresh=refresh)

    def login_form(error: str = "", status: int = 200) -> Response:
        sid, _ = _session(board)
        created, token = board.form_key("login", sid)
        return page("login.html", status=status, page_title="User Control Panel - Login", section="ucp",
                    error=error, creation_time=created, form_token=token,
                    username_value=request.form.get("username", ""),
                    redirect=request.args.get("redirect", "index.php"))

    @app.get("/")
    @app.get("/index.php")
    def index():
        links = ", ".join(f"t={t.id} «{t.title}»" for t in board.topics.values())
        return message("Board index", f"Topics: {links}" if links else "No topics")

    @app.get("/viewtopic.php")
    def viewtopic():
        if request.args.get("p"):
            post = board.posts.get(_int(request.args["p"]))
            if post is None or post.deleted:
                return message("Information", "The requested post does not exist.", 404)
            index = [p.id for p in board.visible_posts(post.topic_id)].index(post.id)
            start = index // board.posts_per_page * board.posts_per_page
            return redirect(f"./viewtopic.php?t={post.topic_id}&start={start}#p{post.id}")
        topic = board.topics.get(_int(request.args.get("t")))
        if topic is None:
            return message("Information", "The requested topic does not exist.", 404)
        if topic.id in board.broken_topics:
            return message(topic.title, "This topic is shown by a theme without post markup.")
        _, me = _session(board)
        posts = board.visible_posts(topic.id, moderator=bool(me and me.admin))
        pages = max(1, math.ceil(len(posts) / board.posts_per_page))
        page_no = min(pages, _int(request.args.get("start")) // board.posts_per_page + 1)
        shown = posts[(page_no - 1) * board.posts_per_page: page_no * board.posts_per_page]

        def page_url(n: int) -> str:
            return f"./viewtopic.php?t={topic.id}" + (f"&start={(n - 1) * board.posts_per_page}" if n > 1 else "")

        return page("viewtopic.html", page_title=topic.title, section="viewtopic", topic=topic,
                    posts=[_post_view(board, p, first=p.id == posts[0].id) for p in shown],
                    page=page_no, pages=pages, page_url=page_url,
                    total_label=f"{len(posts)} post{'s' if len(posts) != 1 else ''}")

    @app.route("/posting.php", methods=["GET", "POST"])
    def posting():
        _, me = _session(board)
        if me is None:
            return login_form()
        mode = request.args.get("mode")
        if mode in ("edit", "delete"):
            post = board.posts.get(_int(request.args.get("p")))
            if post is None or post.deleted:
                return message("Information", "The requested post does not exist.", 404)
            if post.author_id != me.id and not me.admin:
                return message("Information", "You are not authorised to edit or delete this post.", 403)
            return edit(post) if mode == "edit" else delete(post)
        topic = board.topics.get(_int(request.args.get("t")))
        if mode != "reply" or topic is None:
            return message("Information", "The requested topic does not exist.", 404)
        last_id = board.visible_posts(topic.id)[-1].id
        if request.method == "GET":
            return reply_form(topic, last_id)
        sid, _ = _session(board)
        text = request.form.get("message", "")
        uploads = _uploads(board, request.form)
        try:
            board.check_form_key("posting", sid, request.form.get("creation_time", ""),
                                 request.form.get("form_token", ""))
            if "add_file" in request.form and board.attachments:      # phpBB's "Add the file": the form again, the newest upload first
                chosen = request.files.get("fileupload")
                added = board.upload(chosen.filename if chosen else "", chosen.read() if chosen else b"")
                return reply_form(topic, last_id, text=text, uploads=[added, *uploads])
            if _int(request.form.get("topic_cur_post_id")) < last_id:
                raise BoardError("At least one new post has been made to this topic. "
                                 "You may wish to review your post in light of this.")
            post = board.reply(me.name, topic.id, text, request.form.get("subject") or None)
            board.attach(post.id, [upload.id for upload in uploads])
        except BoardError as error:
            return reply_form(topic, last_id, error=str(error), text=text, uploads=uploads)
        return redirect(f"{request.host_url}viewtopic.php?p={post.id}#p{post.id}", code=302)

    def reply_form(topic, last_id: int, error: str = "", text: str = "", uploads=()) -> Response:
        return posting_form(topic, f"./posting.php?mode=reply&t={topic.id}", "Post a reply", error,
                            f"Re: {topic.title}", text, topic_cur_post_id=last_id, uploads=uploads)

    def posting_form(topic, action: str, title: str, error: str, subject: str, text: str,
                     topic_cur_post_id: int | None = None, uploads=()) -> Response:
        """The reply form, or the edit form of a post (no attachments offered: no topic_cur_post_id)."""
        sid, _ = _session(board)
        created, token = board.form_key("posting", sid)
        return page("posting.html", page_title=title, section="posting", topic=topic, action=action,
                    form_title=title, error=error, subject=subject, message=text,
                    topic_cur_post_id=topic_cur_post_id, creation_time=created, form_token=token,
                    uploads=uploads, attachments=board.attachments and topic_cur_post_id is not None)

    def edit(post: BoardPost) -> Response:
        """phpBB's edit form: the post's own text, sent back replaced (the edit notice is the board's)."""
        topic = board.topics[post.topic_id]
        action = f"./posting.php?mode=edit&p={post.id}"
        if request.method == "GET":
            return posting_form(topic, action, "Edit post", "", post.subject, post.bbcode)
        sid, me = _session(board)
        text = request.form.get("message", "")
        try:
            board.check_form_key("posting", sid, request.form.get("creation_time", ""),
                                 request.form.get("form_token", ""))
            if not text.strip():
                raise BoardError("Your message contains too few characters.")
            board.edit_post(post.id, text, by=me.name)
        except BoardError as error:
            return posting_form(topic, action, "Edit post", str(error), post.subject, text)
        return redirect(f"{request.host_url}viewtopic.php?p={post.id}#p{post.id}", code=302)

    def delete(post: BoardPost) -> Response:
        """phpBB asks first (a confirm key of its own); the topic's first post is the topic itself."""
        sid, _ = _session(board)
        if board.topics[post.topic_id].post_ids[0] == post.id:
            return message("Information", "You cannot delete the first post of a topic.", 400)
        back = f"./viewtopic.php?t={post.topic_id}"
        if request.method == "POST":
            if "cancel" in request.form:
                return redirect(back)
            created, _, token = request.args.get("confirm_key", "").partition(".")
            try:
                board.check_form_key("confirm", sid, created, token)
            except BoardError as problem:
                return message("Information", str(problem), 400)
            board.delete_post(post.id)
            return message("Information", "This post has been deleted successfully.", refresh=back)
        created, token = board.form_key("confirm", sid)
        return page("confirm.html", page_title="Delete post", section="posting", heading="Delete post",
                    question="Are you sure you want to delete this post?",
                    action=f"./posting.php?mode=delete&p={post.id}&confirm_key={created}.{token}", fields={})

    @app.get("/download/file.php")
    def download():
        upload = board.files.get(_int(request.args.get("id")))
        if upload is None or upload.post_id is None:
            return message("Information", "The requested attachment does not exist.", 404)
        return Response(upload.data, mimetype="application/octet-stream",
                        headers={"Content-Disposition": f'attachment; filename="{upload.name}"'})

    @app.route("/ucp.php", methods=["GET", "POST"])
    def ucp():
        mode = request.args.get("mode", "")
        if mode == "login":
            return login() if request.method == "POST" else login_form()
        sid, me = _session(board)
        if mode == "logout":
            board.sessions.pop(sid, None)
            return redirect("./index.php")
        if me is None:
            return login_form()
        if request.args.get("i") not in ("pm", "ucp_pm"):
            return message("User Control Panel", f"Logged in as {me.name}.")
        board.place_pms(me.id)
        if request.method == "POST" and request.args.get("action") == "view_folder":
            return mark(me, _int(request.args.get("f")))
        if mode == "compose":
            return compose(me)
        if mode == "view" and request.args.get("p"):
            return view_pm(me, _int(request.args["p"]))
        return folder(me, request.args.get("folder", "inbox"))

    def login() -> Response:
        sid, _ = _session(board)
        try:
            board.check_form_key("login", sid, request.form.get("creation_time", ""),
                                 request.form.get("form_token", ""))
            new_sid = board.login(request.form.get("username", ""), request.form.get("password", ""))
        except BoardError as error:
            return login_form(str(error))
        response = redirect("./" + request.form.get("redirect", "index.php").lstrip("./"))
        response.set_cookie(SID_COOKIE, new_sid, httponly=True)
        return response

    def folder(me: User, name: str) -> Response:
        sent = name in ("sentbox", "outbox")
        own = _int(name) if _int(name) in me.pm_folders else 0
        messages = {"sentbox": board.sentbox, "outbox": board.outbox}.get(
            name, lambda user_id: board.pm_folder(user_id, own))(me.id)
        pages = max(1, math.ceil(len(messages) / PMS_PER_PAGE))
        page_no = min(pages, _int(request.args.get("start")) // PMS_PER_PAGE + 1)
        shown = messages[(page_no - 1) * PMS_PER_PAGE: page_no * PMS_PER_PAGE]

        def page_url(n: int) -> str:
            return f"./ucp.php?i=pm&folder={name}" + (f"&start={(n - 1) * PMS_PER_PAGE}" if n > 1 else "")

        created, token = board.form_key("ucp_pm_view", _session(board)[0])
        rows = [dict(id=m.id, subject=m.subject, unread=m.unread and not sent, date=_date(m.sent_at),
                     sender=board.users[m.sender_id],
                     recipient=board.users[m.recipient_id] if sent else None) for m in shown]
        # phpBB's outbox form only recalls PMs (its delete takes them back unread): not offered here
        return page("pm_folder.html", page_title="Private messages", section="ucp", rows=rows, sent=sent,
                    marks=name != "outbox",
                    folder_id={FOLDER_NAMES[SENTBOX]: SENTBOX, "outbox": -2}.get(name, own), page=page_no, pages=pages,
                    page_url=page_url, total_label=f"{len(messages)} message{'s' if len(messages) != 1 else ''}",
                    stored=len(messages), limit=board.pm_folder_limit, creation_time=created, form_token=token,
                    move_to=[(number, folder_name, len(board.pm_folder(me.id, number)))
                             for number, folder_name in me.pm_folders.items() if number != own])

    def mark(me: User, folder_id: int) -> Response:
        """phpBB's folder form: "Delete marked" asks first (a confirm key of its own), "Move marked
        to <folder>" moves at once and shows the folder again."""
        sid, _ = _session(board)
        form = request.form
        marked = [_int(value) for name, value in form.items(multi=True) if name.startswith("marked_msg_id[")]
        option = form.get("mark_option", "")
        name = FOLDER_NAMES.get(folder_id, str(folder_id or "inbox"))
        back = f"./ucp.php?i=pm&folder={name}"
        try:
            if "confirm" in form or "cancel" in form:
                created, _, token = request.args.get("confirm_key", "").partition(".")
                board.check_form_key("confirm", sid, created, token)
                if "confirm" in form and option == "delete_marked":
                    if folder_id == SENTBOX:
                        board.remove_sent_pms(me.id, marked)
                    else:
                        board.remove_pms(me.id, marked)
                    said = "Messages successfully deleted" if len(marked) > 1 else "This message has been deleted successfully."
                    return message("Information", said, refresh=back)
                return redirect(back)
            board.check_form_key("ucp_pm_view", sid, form.get("creation_time", ""), form.get("form_token", ""))
            if option == "delete_marked":
                created, token = board.form_key("confirm", sid)
                action = (f"./ucp.php?action=view_folder&f={folder_id}&i=pm&mode=view"
                          f"&confirm_key={created}.{token}")
                fields = {"cur_folder_id": folder_id, "mark_option": "delete_marked", "submit_mark": 1,
                          **{f"marked_msg_id[{n}]": pm_id for n, pm_id in enumerate(marked)}}
                return page("confirm.html", page_title="Delete marked messages", section="ucp",
                            heading="Delete marked messages",
                            question="Are you sure you want to delete all marked messages?",
                            action=action, fields=fields)
            if option.isdigit():
                board.remove_pms(me.id, marked, int(option))
        except BoardError as problem:
            return message("Information", str(problem), 400)
        return folder(me, name)

    def view_pm(me: User, pm_id: int) -> Response:
        pm = board.pms.get(pm_id)
        if pm is None or me.id not in (pm.sender_id, pm.recipient_id) or (pm.deleted and me.id != pm.sender_id):
            return message("Information", "The requested message does not exist.", 404)
        if me.id == pm.recipient_id:
            pm.unread = False
        return page("pm_view.html", page_title=f"Private messages - {pm.subject}", section="ucp",
                    pm=_pm_view(board, pm))

    def compose(me: User) -> Response:
        sid, _ = _session(board)
        form = request.form
        recipients = [board.users[i] for i in _addresses(form) if i in board.users]
        if request.args.get("u"):
            recipients += [u for u in [board.users.get(_int(request.args["u"]))] if u]
        error = ""
        if request.method == "POST" and "add_to" in form:
            names = [n for n in form.get("username_list", "").splitlines() if n.strip()]
            found = [board.user_named(n) for n in names]
            recipients += [u for u in found if u]
            if not all(found):
                error = "The requested users to be added do not exist."
        elif request.method == "POST" and "post" in form:
            try:
                board.check_form_key("ucp_pm_compose", sid, form.get("creation_time", ""),
                                     form.get("form_token", ""))
                if not recipients:
                    raise BoardError("No recipient defined.")
                sent = [board.send_pm(me.name, r.name, form.get("subject", ""), form.get("message", ""))
                        for r in recipients]
            except BoardError as problem:
                error = str(problem)
            else:
                target = f"./ucp.php?i=pm&mode=view&p={sent[-1].id}"
                return message("Information", "This message has been sent successfully.", refresh=target)
        created, token = board.form_key("ucp_pm_compose", sid)
        unique = list({u.id: u for u in recipients}.values())
        return page("pm_compose.html", page_title="Compose message", section="ucp", error=error,
                    recipients=unique, subject=form.get("subject", ""), message=form.get("message", ""),
                    creation_time=created, form_token=token)

    return app


def _session(board: Board) -> tuple[str, User | None]:
    """The request's sid (cookie, else `sid=`), minting a guest sid the first time."""
    sid = request.cookies.get(SID_COOKIE) or request.values.get("sid") or ""
    if not sid:
        sid = request.environ.setdefault("forumgm.guest_sid", secrets.token_hex(16))
    return sid, board.session_user(sid)


def _username(user: User, tag: str = "a", link: bool = True) -> Markup:
    style = f' style="color: {ADMIN_COLOUR};"' if user.admin else ""
    css = "username-coloured" if user.admin else "username"
    href = f' href="./memberlist.php?mode=viewprofile&amp;u={user.id}"' if link else ""
    return Markup(f"<{tag}{href}{style} class=\"{css}\">{escape(user.name)}</{tag}>")


def _post_view(board: Board, post: BoardPost, first: bool) -> dict:
    return dict(id=post.id, subject=post.subject, first=first, author=board.users[post.author_id],
                soft_deleted=post.soft_deleted,
                iso=post.posted_at.astimezone(timezone.utc).isoformat(timespec="seconds"),
                date=_date(post.posted_at), content=Markup(to_phpbb_html(post.bbcode)),
                edited=_date(post.edited_at) if post.edited_at else None,
                editor=board.users.get(post.edited_by or 0), edit_count=post.edit_count)


def _pm_view(board: Board, pm: PrivateMessage) -> dict:
    return dict(id=pm.id, subject=pm.subject, date=_date(pm.sent_at), sender=board.users[pm.sender_id],
                recipient=board.users[pm.recipient_id], content=Markup(to_phpbb_html(pm.bbcode)))


def _addresses(form) -> list[int]:
    return [int(m.group(1)) for key in form if (m := _ADDRESS.match(key))]


def _date(moment) -> str:
    return phpbb_date(int(moment.timestamp()))


def _int(value) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return 0


def _uploads(board: Board, form) -> list:
    """The files a reply form carries (its attachment_data fields), in the form's order: newest first."""
    ids = sorted((int(key[len("attachment_data["):key.index("]")]), _int(value)) for key, value in form.items()
                 if key.startswith("attachment_data[") and key.endswith("[attach_id]"))
    return [board.files[file_id] for _, file_id in ids if file_id in board.files]
