"""The host's web page (`forumgm web`) and the players' one-time role links."""
from forumgm.daemon.web.app import create_app
from forumgm.daemon.web.role_links import create_role_link, role_link_path

__all__ = ["create_app", "create_role_link", "role_link_path"]
