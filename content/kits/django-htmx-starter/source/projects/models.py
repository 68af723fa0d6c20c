from django.conf import settings
from django.db import models
from django.db.models import Count, Q


class ProjectQuerySet(models.QuerySet):
    def for_user(self, user):
        return self.filter(members=user).annotate(
            open_count=Count("tasks", filter=Q(tasks__done=False)),
            done_count=Count("tasks", filter=Q(tasks__done=True)),
        )


class Project(models.Model):
    name = models.CharField(max_length=120)
    members = models.ManyToManyField(settings.AUTH_USER_MODEL, through="Membership", related_name="projects")
    created_at = models.DateTimeField(auto_now_add=True)

    objects = ProjectQuerySet.as_manager()

    def __str__(self) -> str:
        return self.name


class Membership(models.Model):
    class Role(models.TextChoices):
        OWNER = "owner", "Owner"
        MEMBER = "member", "Member"

    project = models.ForeignKey(Project, on_delete=models.CASCADE)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)
    role = models.CharField(max_length=10, choices=Role, default=Role.MEMBER)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["project", "user"], name="unique_membership")]


class TaskQuerySet(models.QuerySet):
    def search(self, query: str):
        return self.filter(title__icontains=query) if query else self


class Task(models.Model):
    class Priority(models.IntegerChoices):
        LOW = 1, "Low"
        NORMAL = 2, "Normal"
        HIGH = 3, "High"

    project = models.ForeignKey(Project, on_delete=models.CASCADE, related_name="tasks")
    title = models.CharField(max_length=200)
    assignee = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="tasks"
    )
    priority = models.PositiveSmallIntegerField(choices=Priority, default=Priority.NORMAL)
    due_on = models.DateField(null=True, blank=True)
    done = models.BooleanField(default=False)
    updated_at = models.DateTimeField(auto_now=True)

    objects = TaskQuerySet.as_manager()

    class Meta:
        ordering = ["done", "-priority", "due_on"]

    def __str__(self) -> str:
        return self.title
