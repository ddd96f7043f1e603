from django.contrib.auth.models import AbstractUser


class User(AbstractUser):
    """A player. Custom from the first migration so fields can be added freely."""

    class Meta:
        db_table = "accounts_user"

    def __str__(self) -> str:
        return self.username
