import datetime

from advisor.calibration_admin.figures import bias, factor, targets
from advisor.calibration_admin.page import citation, fitted_at


def test_the_fit_time_is_read_from_the_version():
    assert fitted_at("20261121.143005-105pts") == datetime.datetime(
        2026, 11, 21, 14, 30, 5, tzinfo=datetime.UTC
    )
    assert fitted_at("handmade") is None


def test_a_bibliography_key_is_cited_in_full_and_in_short():
    cited = citation("callaghan-2009-2disk")
    assert cited["full"].startswith("Mark Callaghan, “InnoDB, IO-bound OLTP, 2-disk server”")
    assert cited["short"] == "Mark Callaghan, 2009-06-08"
    assert cited["anchor"] == "source-callaghan-2009-2disk"


def test_a_user_submission_is_named_by_its_number():
    assert citation("user-submission-12")["short"] == "submission #12"


def test_an_unknown_key_is_shown_as_it_is():
    assert citation("nobody-1999")["full"] == "nobody-1999 (not in the bibliography)"


def test_errors_read_as_factors_and_bias_as_a_percentage():
    assert factor(0.447) == "×1.56"
    assert factor(-0.447) == "×1.56"
    assert bias(0.129) == "+14%"
    assert bias(-0.876) == "-58%"


def test_targets_say_which_are_met():
    report = {
        "coverage": 0.8,
        "median_width_ratio": 3.5,
        "median_abs_log_error": 0.25,
        "points": 300,
        "sources": 39,
        "pairs": {"tolerance": 1.5, "within_tolerance": 0.75, "wrong_direction": 1},
    }
    assert [met for _, met in targets(report)] == [True, False, True, True, False, True, False]
