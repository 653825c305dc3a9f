"""Voilà's identity provider, plus the ``_xsrf`` cookie on every page, so a closed tab frees its kernel.

When a Voilà tab closes, the page posts a beacon to ``/voila/api/shutdown/<kernel>`` carrying the
``_xsrf`` cookie's value; the server checks it against the cookie. Voilà 0.5 only sets that cookie on
``/voila/tree``, so a visitor who follows a direct ``/voila/render/...`` link (the README's and Binder's)
gets a 403 on close and the kernel lives on until culled. Reading ``handler.xsrf_token`` on every page
request makes tornado set the cookie (the same cookie the tree page sets).
"""

from __future__ import annotations

import inspect

from jupyter_server.auth.identity import PasswordIdentityProvider
from tornado.websocket import WebSocketHandler


def sets_xsrf_cookie(handler) -> bool:
    """True for a plain page request (GET, not a websocket upgrade) that should carry the cookie."""
    return handler.request.method == "GET" and not isinstance(handler, WebSocketHandler)


class XsrfCookieIdentityProvider(PasswordIdentityProvider):
    """Voilà's default identity provider that also makes sure the page has an ``_xsrf`` cookie."""

    async def get_user(self, handler):
        """The user, as Voilà finds it; on a page request, also set the ``_xsrf`` cookie if missing."""
        user = super().get_user(handler)
        if inspect.isawaitable(user):
            user = await user
        if sets_xsrf_cookie(handler):
            handler.current_user = user  # what prepare() sets next; tornado's xsrf_token reads it
            handler.xsrf_token  # noqa: B018 -- tornado sets the cookie when the token is first read
        return user
