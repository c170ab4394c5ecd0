from django.db import models


class Recommendation(models.Model):
    """One result as the user saw it: the validated profile, the result JSON, and the versions
    of the rules and the calibration that produced it, so a permalink stays reproducible."""

    id = models.CharField(
        primary_key=True, max_length=32, help_text="Content hash given by the engine."
    )
    profile = models.JSONField(help_text="The validated profile, as echoed in the result.")
    result = models.JSONField(help_text="The result object, as the JSON export writes it.")
    ruleset_version = models.CharField(max_length=32)
    calibration_version = models.CharField(max_length=64, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("-created_at",)

    def __str__(self) -> str:
        return f"{self.id} (rules {self.ruleset_version})"
