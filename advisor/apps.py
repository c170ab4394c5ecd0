from django.apps import AppConfig


class AdvisorConfig(AppConfig):
    name = "advisor"
    verbose_name = "InnoDB IO Advisor"
    default_auto_field = "django.db.models.BigAutoField"
