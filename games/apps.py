from django.apps import AppConfig

from accounts import signals as accounts_signals

from . import events
from .events import Event


class GamesConfig(AppConfig):
    name = "games"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Imported here, not at the top: the pushes, the tasks and the services
        # load the models, which Django allows only once the app registry is ready.
        from . import realtime, tasks
        from .services import vacations

        events.subscribe(Event.GAME_CHANGED, realtime.broadcast_game)
        events.subscribe(Event.TABLE_CHANGED, realtime.broadcast_table_changed)
        events.subscribe(Event.LOBBY_CHANGED, realtime.broadcast_lobby)
        events.subscribe(Event.BOT_TURN, tasks.queue_bot_turn)
        events.subscribe(Event.ONLY_CARD, tasks.queue_only_card)
        events.subscribe(Event.TURN_NEWS, tasks.queue_turn_news)
        accounts_signals.vacation_changed.connect(
            vacations.reset_deadlines, dispatch_uid="games.reset_deadlines"
        )
