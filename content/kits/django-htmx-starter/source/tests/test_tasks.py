import pytest
from django.urls import reverse

from accounts.models import User
from projects.models import Membership, Project, Task


@pytest.fixture
def owner(db):
    return User.objects.create_user("owner@example.com", "pw-12345678")


@pytest.fixture
def project(owner):
    project = Project.objects.create(name="Website relaunch")
    Membership.objects.create(project=project, user=owner, role=Membership.Role.OWNER)
    return project


def test_htmx_search_returns_only_rows(client, owner, project):
    Task.objects.create(project=project, title="Write copy")
    Task.objects.create(project=project, title="Fix header")
    client.force_login(owner)

    response = client.get(reverse("projects:task_list", args=[project.id]), {"q": "copy"}, HTTP_HX_REQUEST="true")

    html = response.content.decode()
    assert "Write copy" in html and "Fix header" not in html
    assert "<html" not in html


def test_invalid_edit_returns_422_with_form(client, owner, project):
    task = Task.objects.create(project=project, title="Write copy")
    client.force_login(owner)

    response = client.post(reverse("projects:task_edit", args=[task.id]), {"title": "", "priority": 2}, HTTP_HX_REQUEST="true")

    assert response.status_code == 422
    assert "This field is required" in response.content.decode()


def test_other_users_get_404(client, project):
    task = Task.objects.create(project=project, title="Secret")
    client.force_login(User.objects.create_user("stranger@example.com", "pw-12345678"))

    assert client.get(reverse("projects:task_edit", args=[task.id])).status_code == 404
