"""Kombu's Redis transport, with one client per channel instead of one per command.

Kombu's Redis channel builds a new `redis.Redis` for every command it sends
on its synchronous side (`Channel.conn_or_acquire`): publishing a task, and
in the worker's parent each delivery's bookkeeping (`QoS.append`) and each
acknowledgement (`QoS.ack`). The connection comes from the channel's pool
either way; what is made anew is the client object, and redis-py fills a
case-insensitive table of some 170 response callbacks for each one: about a
quarter of a task's publish (0.12 of 0.5 ms) and, with three a bot move,
about 2% of the worker's samples under load (docs/performance.md).

A redis-py client is safe to share, so this channel keeps one for as long as
its pool is the same (the channel makes a new pool after a reconnect, and
then a new client). Selected by CELERY_BROKER_TRANSPORT; the URL still says
where Redis is. Everything else is kombu's.
"""

from __future__ import annotations

from typing import Any

from kombu.transport import redis as kombu_redis


class Channel(kombu_redis.Channel):  # type: ignore[misc]
    _sync_client: Any = None

    def _create_client(self, asynchronous: bool = False) -> Any:
        if asynchronous:
            return super()._create_client(asynchronous=True)
        pool = self.pool
        client = self._sync_client
        if client is None or client.connection_pool is not pool:
            client = self._sync_client = super()._create_client()
        return client


class Transport(kombu_redis.Transport):  # type: ignore[misc]
    Channel = Channel
