from django import forms

from .models import Task


class TaskForm(forms.ModelForm):
    class Meta:
        model = Task
        fields = ["title", "assignee", "priority", "due_on"]
        widgets = {"due_on": forms.DateInput(attrs={"type": "date"})}

    def __init__(self, *args, project, **kwargs):
        super().__init__(*args, **kwargs)
        # Only members of this project can be assigned.
        self.fields["assignee"].queryset = project.members.all()
