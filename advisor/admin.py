"""The admin site's models, registered by their features (Django's autodiscovery imports this)."""

from advisor.calibration_admin import admin as calibration_admin
from advisor.recommendations import admin as recommendations_admin

__all__ = ("calibration_admin", "recommendations_admin")
