"""The host's web page (`forumgm web`), and the page where a player opens his one-time role link."""
from forumgm.daemon.web.app import create_app

__all__ = ["create_app"]
