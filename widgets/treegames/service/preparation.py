"""Kernels made ready for a class, as a teacher page's kernel sees them: progress per page, and the request.

The class server does the work (:mod:`treegames.serving.preparation`); this module is what a kernel needs
to ask it and to show the answer, so the views import nothing of the server.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from . import wire

__all__ = ["METHODS", "MOST_PER_PAGE", "PageProgress", "PreparationRefused", "PreparationClient", "connect", "page_title"]

METHODS = ("progress", "prepare")
"""The ``class`` service's calls."""
MOST_PER_PAGE = 200
"""The largest count a teacher may ask for one page (the server's ceiling and memory usually say less)."""


class PreparationRefused(ValueError):
    """A request to prepare kernels that cannot be met: an unknown page, a count out of range, not enough memory."""


def page_title(page: str) -> str:
    """A page's name as people say it: 'aspens/play.ipynb' -> 'Aspens: play'."""
    folder, _, name = page.rpartition("/")
    name = name.removesuffix(".ipynb").replace("-", " ").replace("_", " ")
    folder = folder.replace("_", " ").replace("/", ": ")
    return f"{folder[:1].upper()}{folder[1:]}: {name}" if folder else name[:1].upper() + name[1:]


@dataclass(frozen=True)
class PageProgress:
    """One page's prepared kernels: ready (notebook run), being prepared, and asked for."""

    page: str
    ready: int
    preparing: int
    asked: int

    def is_ready(self) -> bool:
        """Whether every kernel asked for has run its notebook."""
        return self.ready >= self.asked

    def sentence(self) -> str:
        """'18 of 30 kernels ready for Aspens: play'."""
        return f"{min(self.ready, self.asked)} of {self.asked} kernels ready for {page_title(self.page)}"


class PreparationClient(wire.RpcClient):
    """A teacher page's kernel asking the class server (its URL and key are in the kernel's environment)."""

    def __init__(self, url: str, headers: dict[str, str], timeout: float = 20.0):
        super().__init__(url, "class", headers, METHODS, _refusal_from, _unavailable, timeout)

    def progress(self) -> list[PageProgress]:
        """Every page's prepared kernels."""
        return [PageProgress(**item) for item in self.call("progress")]

    def prepare(self, teacher_code: str, page: str, count: int) -> PageProgress:
        """Ask for ``count`` kernels kept ready for ``page``."""
        return PageProgress(**self.call("prepare", teacher_code=teacher_code, page=page, count=count))


def _refusal_from(data: dict) -> Exception:
    """The server's refusal as an exception the page can show."""
    return PreparationRefused(str(data.get("message", "The server refused."))[:300])


def _unavailable(message: str) -> Exception:
    """The server could not be reached."""
    return PreparationRefused(message)


def connect() -> PreparationClient | None:
    """A client for the class server named in this kernel's environment, or None (Binder, a hub, JupyterLab)."""
    url = os.environ.get(wire.URL_ENV)
    headers = wire.auth_headers()
    if not url or wire.KEY_HEADER not in headers:
        return None
    return PreparationClient(url, headers)
