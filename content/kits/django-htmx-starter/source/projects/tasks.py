from datetime import timedelta
from smtplib import SMTPException

from celery import shared_task
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.mail import send_mail
from django.utils import timezone


@shared_task(autoretry_for=(SMTPException,), retry_backoff=True, max_retries=5)
def send_due_reminders() -> int:
    """Email each user the open tasks due tomorrow. Returns the number of emails sent."""
    tomorrow = timezone.localdate() + timedelta(days=1)
    users = get_user_model().objects.filter(tasks__due_on=tomorrow, tasks__done=False).distinct()
    sent = 0
    for user in users:
        titles = user.tasks.filter(due_on=tomorrow, done=False).values_list("title", flat=True)
        body = "These tasks are due tomorrow:\n\n" + "\n".join(f"- {title}" for title in titles)
        send_mail(f"{settings.SITE_NAME}: {len(titles)} task(s) due tomorrow", body, None, [user.email])
        sent += 1
    return sent
