import uuid

from django.conf import settings
from django.db import models

from advisor.fast_json_field import KeptJSONField


class Recommendation(models.Model):
    """One result as the user saw it: the validated profile, the result JSON, and the versions
    of the rules and the calibration that produced it, so a permalink stays reproducible."""

    id = models.CharField(
        primary_key=True, max_length=32, help_text="Content hash given by the engine."
    )
    profile = KeptJSONField(help_text="The validated profile, as echoed in the result.")
    result = KeptJSONField(
        help_text="The result object as the JSON export writes it, less the `sources` it derives "
        "from the bibliography when it is read."
    )
    ruleset_version = models.CharField(max_length=32)
    calibration_version = models.CharField(max_length=64, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("-created_at",)

    def __str__(self) -> str:
        return f"{self.id} (rules {self.ruleset_version})"


class Batch(models.Model):
    """A fleet of profiles computed in the background. Progress lives here, not in the broker."""

    class Status(models.TextChoices):
        PENDING = "pending", "created, not yet queued"
        QUEUED = "queued", "queued on the broker"
        RUNNING = "running", "being computed"
        DONE = "done", "every item finished"

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="batches"
    )
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PENDING)
    total = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    queued_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    base_url = models.CharField(
        max_length=500,
        blank=True,
        help_text="The site's address as the batch's creator reached it; the links in its "
        "archives point there (the worker that builds them has no request).",
    )

    class Meta:
        ordering = ("-created_at",)

    def __str__(self) -> str:
        return f"batch {self.id} ({self.status}, {self.total} profiles)"


class BatchArchive(models.Model):
    """One export format of a finished batch as a zip, built once by a worker into
    BATCH_ARCHIVE_DIR (`advisor.fleet.archive_files`); this row says it was asked for and when
    it was written."""

    batch = models.ForeignKey(Batch, on_delete=models.CASCADE, related_name="archives")
    format = models.CharField(max_length=32)
    requested_at = models.DateTimeField(help_text="When its build was last queued.")
    built_at = models.DateTimeField(null=True, blank=True)
    size = models.PositiveBigIntegerField(null=True, blank=True, help_text="Bytes of the zip.")

    class Meta:
        constraints = (
            models.UniqueConstraint(fields=("batch", "format"), name="batch_archive_format"),
        )

    def __str__(self) -> str:
        return f"{self.format} archive of batch {self.batch_id}"


class BatchItem(models.Model):
    """One host of a batch: its raw profile, then its result or its field errors."""

    class Status(models.TextChoices):
        PENDING = "pending", "waiting"
        DONE = "done", "computed"
        FAILED = "failed", "invalid profile"

    batch = models.ForeignKey(Batch, on_delete=models.CASCADE, related_name="items")
    position = models.PositiveIntegerField()
    name = models.CharField(max_length=255)
    profile = KeptJSONField(
        help_text="The profile as sent, its pasted configuration reduced to what the advisor reads."
    )
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PENDING)
    recommendation = models.ForeignKey(
        Recommendation, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    errors = models.JSONField(null=True, blank=True, help_text="Field errors, by field path.")
    attempts = models.PositiveIntegerField(default=0)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ("batch", "position")
        constraints = (
            models.UniqueConstraint(fields=("batch", "position"), name="batch_item_position"),
        )
        indexes = (models.Index(fields=("batch", "status"), name="batch_item_status"),)

    def __str__(self) -> str:
        return f"{self.name} ({self.status})"


class CalibrationRun(models.Model):
    """One fit of the throughput model: its version, where its artifact is, and its report."""

    class Trigger(models.TextChoices):
        COMMAND = "command", "manage.py calibrate"
        TASK = "task", "Celery task"

    version = models.CharField(max_length=64, unique=True)
    trigger = models.CharField(max_length=16, choices=Trigger.choices)
    artifact = models.CharField(max_length=500, help_text="Path of the fitted model file.")
    points = models.PositiveIntegerField()
    sources = models.PositiveIntegerField()
    coverage = models.FloatField(help_text="Leave-one-source-out coverage of the 80% interval.")
    median_width_ratio = models.FloatField(help_text="Median high/low of the intervals.")
    report = models.JSONField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("-created_at",)

    def __str__(self) -> str:
        return f"calibration {self.version}"


class Measurement(models.Model):
    """A user's own measurement; it enters the fit only once an admin approves it."""

    class Kind(models.TextChoices):
        BENCHMARK = "benchmark", "a benchmark result for a described machine"
        FIO = "fio", "fio random IOPS of a storage array"

    class Status(models.TextChoices):
        PENDING = "pending", "waiting for review"
        APPROVED = "approved", "approved: used by the next fit"
        REJECTED = "rejected", "rejected"

    kind = models.CharField(max_length=16, choices=Kind.choices)
    profile = models.JSONField(
        help_text="The described machine, its pasted configuration reduced to what is read."
    )
    metric = models.CharField(max_length=32, blank=True, help_text="Unit of `value`.")
    value = models.FloatField(null=True, blank=True)
    random_read_iops = models.FloatField(null=True, blank=True)
    random_write_iops = models.FloatField(null=True, blank=True)
    server_settings = models.JSONField(
        default=dict,
        blank=True,
        help_text="The modelled server settings the result was measured with.",
    )
    source = models.CharField(max_length=500, blank=True, help_text="Where it was published.")
    notes = models.TextField(blank=True)
    submitted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="measurements",
    )
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PENDING)
    created_at = models.DateTimeField(auto_now_add=True)
    reviewed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ("-created_at",)

    def __str__(self) -> str:
        return f"{self.kind} measurement #{self.pk} ({self.status})"
