from django.urls import path

from . import consumers

# Before games.routing's: the table page's socket carries the chat too.
websocket_urlpatterns = [
    path("ws/tables/<int:table_id>/", consumers.TableChatConsumer.as_asgi()),
]
