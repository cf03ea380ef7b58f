"""Gradio's per-visitor sessions. Each session gradio opens (a page load, or an API client) keeps a copy of the whole
page's configuration, about 0.2 MiB for this page, whether or not it holds any state, and gradio forgets a session
only when state_session_capacity newer ones have come. API clients open a session each and never use its state, so
on a busy Space that copy grew with every caller. The sweeper forgets idle sessions (settings.py, "sessions")."""
from __future__ import annotations

import datetime

from .settings import SESSION_IDLE_SECONDS, STATELESS_SESSION_IDLE_SECONDS


def forget_idle_sessions(blocks, now: datetime.datetime | None = None) -> int:
    """Forget the sessions idle past their time: those holding no state (API clients; closed pages whose state
    gradio has deleted) after STATELESS_SESSION_IDLE_SECONDS, any after SESSION_IDLE_SECONDS, running their
    states' delete callbacks (a session's avatar folder). How many were forgotten."""
    holder = getattr(blocks, "state_holder", None)
    if holder is None:      # not launched
        return 0
    now = now or datetime.datetime.now()
    forgotten = 0
    for session_id, last_used in list(holder.time_last_used.items()):
        session = holder.session_data.get(session_id)
        idle_limit = SESSION_IDLE_SECONDS if session is not None and session.state_data \
            else STATELESS_SESSION_IDLE_SECONDS
        if (now - last_used).total_seconds() <= idle_limit:
            continue
        holder.delete_state(session_id)
        with holder.lock:
            holder.session_data.pop(session_id, None)
            holder.time_last_used.pop(session_id, None)
        forgotten += 1
    return forgotten
