from django.urls import path

from . import views

app_name = "projects"

urlpatterns = [
    path("", views.index, name="index"),
    path("projects/<int:project_id>/tasks/", views.task_list, name="task_list"),
    path("tasks/<int:task_id>/", views.task_row, name="task_row"),
    path("tasks/<int:task_id>/edit/", views.task_edit, name="task_edit"),
    path("tasks/<int:task_id>/toggle/", views.task_toggle, name="task_toggle"),
]
