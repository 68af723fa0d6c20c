from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_http_methods, require_POST

from .forms import TaskForm
from .models import Project, Task

TEMPLATE = "projects/task_list.html"


@login_required
def index(request):
    projects = Project.objects.for_user(request.user).order_by("name")
    return render(request, "projects/index.html", {"projects": projects})


def _task_for(request, task_id) -> Task:
    return get_object_or_404(Task.objects.select_related("project", "assignee"), pk=task_id, project__members=request.user)


@login_required
def task_list(request, project_id):
    project = get_object_or_404(Project, pk=project_id, members=request.user)
    tasks = project.tasks.select_related("assignee").search(request.GET.get("q", "").strip())
    template = f"{TEMPLATE}#task-rows" if request.htmx else TEMPLATE
    return render(request, template, {"project": project, "tasks": tasks, "q": request.GET.get("q", "")})


@login_required
def task_row(request, task_id):
    return render(request, f"{TEMPLATE}#task-row", {"task": _task_for(request, task_id)})


@login_required
@require_http_methods(["GET", "POST"])
def task_edit(request, task_id):
    task = _task_for(request, task_id)
    form = TaskForm(request.POST or None, instance=task, project=task.project)
    if request.method == "POST":
        if form.is_valid():
            form.save()
            return render(request, f"{TEMPLATE}#task-row", {"task": task})
        return render(request, f"{TEMPLATE}#task-form", {"task": task, "form": form}, status=422)
    return render(request, f"{TEMPLATE}#task-form", {"task": task, "form": form})


@login_required
@require_POST
def task_toggle(request, task_id):
    task = _task_for(request, task_id)
    task.done = not task.done
    task.save(update_fields=["done", "updated_at"])
    if not request.htmx:
        return redirect("projects:task_list", project_id=task.project_id)
    project = Project.objects.for_user(request.user).get(pk=task.project_id)
    # Row plus an out-of-band update of the progress bar in the header.
    return render(request, f"{TEMPLATE}#toggle-response", {"task": task, "project": project})
