from django.db import migrations, models


def from_quiet_hours(apps, schema_editor):
    """A zone chosen earlier for quiet hours (notifications' Preferences) becomes the player's."""
    Preferences = apps.get_model("notifications", "Preferences")
    User = apps.get_model("accounts", "User")
    for user_id, zone in (
        Preferences.objects.exclude(time_zone__in=["", "UTC"]).values_list("user_id", "time_zone")
    ):
        User.objects.filter(pk=user_id, time_zone="").update(time_zone=zone)


class Migration(migrations.Migration):

    dependencies = [
        ('accounts', '0007_user_is_guest'),
        ('notifications', '0004_chat_kind'),
    ]

    operations = [
        migrations.AddField(
            model_name='user',
            name='time_zone',
            field=models.CharField(blank=True, default='', max_length=64),
        ),
        migrations.RunPython(from_quiet_hours, migrations.RunPython.noop),
    ]
