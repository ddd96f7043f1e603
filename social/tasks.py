"""Celery tasks: the e-mail to a person invited by address, and the expiry sweep."""

from __future__ import annotations

from celery import shared_task
from django.conf import settings
from django.core import mail
from django.template.loader import render_to_string
from django.utils import translation

from accounts.languages import language_of

from . import services
from .models import Invitation


@shared_task(acks_late=True, ignore_result=True)
def send_invitation_email(invitation_id: int) -> bool:
    """Mail the link of an invitation by e-mail address, in the inviter's language."""
    invitation = (
        Invitation.objects.select_related("table", "inviter")
        .filter(pk=invitation_id, status=Invitation.Status.PENDING)
        .first()
    )
    if invitation is None or not invitation.email:
        return False
    with translation.override(language_of(invitation.inviter)):
        ctx = {
            "invitation": invitation,
            "link": f"{settings.SITE_URL}{invitation.get_absolute_url()}",
            "site_url": settings.SITE_URL,
        }
        subject = render_to_string("social/email/invitation_subject.txt", ctx)
        body = render_to_string("social/email/invitation.txt", ctx)
    mail.send_mail(" ".join(subject.split()), body, None, [invitation.email])
    return True


@shared_task(acks_late=True, ignore_result=True)
def expire_invitations() -> int:
    return services.invitations_expire()
