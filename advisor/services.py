"""The one place where the faces (wizard, API, CLI) reach the engine and the model."""

from rules.engine import recommend
from rules.profile import Profile
from rules.result import Result


def recommendation_compute(*, profile: Profile) -> Result:
    """Compute a result without storing it."""
    return recommend(profile)
