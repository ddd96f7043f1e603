"""ASGI entry point: HTTP through Django, websockets through Channels."""

import gc
import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "euchre_site.settings")

# Django must be set up before the consumers (and their models) are imported.
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402

from chat.routing import websocket_urlpatterns as chat_urlpatterns  # noqa: E402
from euchre_site.client_ip import ClientAddressMiddleware  # noqa: E402
from euchre_site.ws_guard import OriginValidator, SocketLimitMiddleware  # noqa: E402
from games.routing import websocket_urlpatterns  # noqa: E402
from notifications.routing import websocket_urlpatterns as notification_urlpatterns  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        # The client's address (trusted proxies only), then this site's origin
        # (scheme, host and port), the user, and the cap on one user's open sockets.
        "websocket": ClientAddressMiddleware(
            OriginValidator(
                AuthMiddlewareStack(
                    SocketLimitMiddleware(
                        # The table page's socket is the chat's (a TableConsumer with the
                        # chat's events), so its route comes first.
                        URLRouter(
                            chat_urlpatterns + websocket_urlpatterns + notification_urlpatterns
                        )
                    )
                )
            )
        ),
    }
)

# The web process keeps many long-lived objects (every open socket's
# consumer and its state: about 360,000 at 800 sockets). With CPython's
# default thresholds (700, 10, 10), objects that live a few milliseconds (a
# request, a chat message's service call) are promoted before they die, and
# the full collections that follow stopped every socket of the process for
# 250-290 ms (benchmarks.live: once in 5 minutes with bots only, every 20 s
# to 90 s with chat; README "Table chat"). A larger first threshold lets
# them die young, and what was loaded at start-up is frozen out of every
# collection.
gc.freeze()
gc.set_threshold(20_000, 10, 10)
