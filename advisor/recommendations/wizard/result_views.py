"""The result at its permalink, its downloads, the what-if comparison and the bibliography."""

import functools
import json
from collections.abc import Callable
from typing import Concatenate

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.utils.http import content_disposition_header
from django.views.decorators.http import require_GET, require_POST

from advisor.models import Recommendation
from advisor.page_limits import get_cost, limited_by, page_limited
from advisor.recommendations.services import (
    RecommendationOutdated,
    recommendation_compute,
    recommendation_create,
    recommendation_get,
    recommendation_store,
)
from advisor.recommendations.wizard import lab_form, rds_list
from advisor.recommendations.wizard.display import (
    Export,
    estimate_bars,
    estimate_panel,
    exports,
    interval_meaning,
    os_rows,
    setting_groups,
)
from advisor.recommendations.wizard.posted_json import PostedRefused
from advisor.recommendations.wizard.probe import report_rows
from advisor.recommendations.wizard.steps import STEPS, draft_from_profile, draft_save
from advisor.recommendations.wizard.summary import machine_summary
from advisor.recommendations.wizard.views import is_fragment
from advisor.recommendations.wizard.whatif import compare, variants
from rules.inputs.echo import profile_from_echo
from rules.inputs.enums import Media
from rules.inputs.errors import OutputRefused, ProfileError
from rules.inputs.validation import parse_profile
from rules.output.headline import headline
from rules.output.result import Result
from rules.output.revert import can_revert
from rules.reference.bibliography import all_sources
from rules.registry import all_rules
from rules.render import (
    CONTENT_TYPES,
    FORMATS,
    filename_for,
    render,
    render_revert,
    revert_filename_for,
)

RDS_JSON = "rds-json"
MAX_PROBLEMS_SHOWN = 20  # a list of 5,000 bad rows names each; the first few say what is wrong

ResultView = Callable[Concatenate[HttpRequest, str, ...], HttpResponse]


def shows_outdated(status: int) -> Callable[[ResultView], ResultView]:
    """A stored result whose inputs this version no longer accepts is shown as it was stored,
    with a note saying why nothing else can be done with it (`status`: 200 for its page, 409
    for a download or an action that needs the inputs)."""

    def decorate(view: ResultView) -> ResultView:
        @functools.wraps(view)
        def wrapped(
            request: HttpRequest, recommendation_id: str, *args: object, **kwargs: object
        ) -> HttpResponse:
            try:
                return view(request, recommendation_id, *args, **kwargs)
            except RecommendationOutdated as outdated:
                return _outdated_page(request, outdated, status)

        return wrapped

    return decorate


def _outdated_page(
    request: HttpRequest, outdated: RecommendationOutdated, status: int
) -> TemplateResponse:
    stored = outdated.stored
    context = {
        "stored": stored,
        "result": stored.result,
        "problems": outdated.problems,
        "inputs_text": json.dumps(stored.profile, indent=2, ensure_ascii=False),
    }
    return TemplateResponse(request, "recommendations/outdated.html", context, status=status)


@require_GET
@limited_by(get_cost)
@shows_outdated(200)
def result_page(request: HttpRequest, recommendation_id: str) -> TemplateResponse:
    result = _stored(recommendation_id)
    offered, comparison = compare(result, request.GET.get("whatif", ""), recommendation_compute)
    context = {"result": result, "whatifs": offered, "comparison": comparison}
    if is_fragment(request):
        return TemplateResponse(request, "recommendations/result.html#whatif", context)
    return _full_page(request, result, context)


def _full_page(
    request: HttpRequest, result: Result, context: dict[str, object], *, status: int = 200
) -> TemplateResponse:
    """The whole result page; `context` holds the what-if part and, after a refused RDS list,
    its problems."""
    title = "Estimated throughput of the reference benchmark"
    files = exports(result, base_url=_base_url(request))
    context |= {
        "headline": headline(result),
        "summary": machine_summary(draft_from_profile(result.profile.raw)),
        "setting_groups": setting_groups(result),
        "has_current": result.profile.current is not None,
        "can_revert": can_revert(result),
        "os_items": os_rows(result),
        "exports": files,
        "rds_list_fmt": _rds_list_fmt(files),
        "rds_list_max_kib": rds_list.MAX_LIST_BYTES // 1024,
        "lab_max_kib": lab_form.MAX_TEXT_BYTES // 1024,
        "estimate": estimate_panel(estimate_bars(result.estimate), chart_id="chart", title=title),
        "interval_meaning": interval_meaning(
            result.estimate,
            on_disks=_on_disks(result),
            measured_cpu=result.profile.hardware.measured_cpu,
        ),
        "permalink": _base_url(request) + result.permalink,
        "probe": dict(
            zip(("version", "rows", "undetected"), report_rows(result.profile), strict=True)
        ),
    }
    return TemplateResponse(request, "recommendations/result.html", context, status=status)


def _rds_list_fmt(files: tuple[Export, ...]) -> str:
    """The RDS export under which the form for the user's parameter list goes: rds-json when it
    is refused for want of a list (the form would lift that), else none."""
    wanting = {e.fmt for e in files if e.refused and e.refused_field == rds_list.RDS_FIELD}
    return RDS_JSON if RDS_JSON in wanting else ""


def _on_disks(result: Result) -> bool:
    """Whether the stored profile's storage is spinning disks."""
    return result.profile.hardware.storage.media is Media.HDD


@require_GET
@limited_by(get_cost)
@shows_outdated(409)
def result_download(
    request: HttpRequest, recommendation_id: str, fmt: str, revert: bool = False
) -> HttpResponse:
    """One export, or with `revert` its twin that sets the current configuration back."""
    if fmt not in FORMATS:
        raise Http404("no such format")
    result = _stored(recommendation_id)
    if revert and not can_revert(result):
        raise Http404("this result was computed without the current configuration")
    filename = revert_filename_for(result, fmt) if revert else filename_for(result, fmt)
    try:
        text = (render_revert if revert else render)(result, fmt, base_url=_base_url(request))
    except OutputRefused as refused:
        context = {
            "result": result,
            "fmt": fmt,
            "reason": str(refused),
            "wants_rds_list": refused.field == rds_list.RDS_FIELD,
        }
        return TemplateResponse(request, "recommendations/refused.html", context, status=409)
    disposition = content_disposition_header(True, filename)
    return HttpResponse(
        text, content_type=CONTENT_TYPES[fmt], headers={"Content-Disposition": disposition}
    )


@require_POST
@page_limited
@shows_outdated(409)
def result_edit(request: HttpRequest, recommendation_id: str) -> HttpResponse:
    """Open the wizard filled with this result's inputs."""
    result = _stored(recommendation_id)
    draft_save(request.session, draft_from_profile(result.profile.raw))
    return redirect("wizard-step", step=STEPS[0].slug)


@require_POST
@page_limited
@shows_outdated(409)
def whatif_save(request: HttpRequest, recommendation_id: str) -> HttpResponse:
    """Store the what-if variant as a result of its own, with its own permalink."""
    result = _stored(recommendation_id)
    chosen = next((v for v in variants(result) if v.slug == request.POST.get("whatif")), None)
    if chosen is None:
        return redirect(result.permalink)
    return redirect(recommendation_create(profile=chosen.profile).permalink)


@require_POST
@page_limited
@shows_outdated(409)
def result_rds_list(request: HttpRequest, recommendation_id: str) -> HttpResponse:
    """This result again with the user's RDS parameter list kept (rules.render.rds): stored
    under its own permalink, where the RDS files are written; a list that is not the command's
    output shows the result page again with the problems, 400."""
    result = _stored(recommendation_id)
    try:
        document = rds_list.read_list(rds_list.POSTED.text(request.POST, request.FILES))
        kept = recommendation_compute(
            profile=result.profile, rds_parameters=document, rds_field=rds_list.RDS_FIELD
        )
    except PostedRefused as refused:
        return _refused_list(request, result, [str(refused)])
    except ProfileError as problem:
        return _refused_list(request, result, problem.lines())
    recommendation_store(result=kept)
    return redirect(kept.permalink)


@require_POST
@page_limited
@shows_outdated(409)
def result_lab(request: HttpRequest, recommendation_id: str) -> HttpResponse:
    """This result again with the user's lab results as workload.lab_results: a new result,
    its estimate anchored on them, under its own permalink; text that is not lab results shows
    the result page again with the problems, 400."""
    result = _stored(recommendation_id)
    try:
        text = lab_form.POSTED.text(request.POST, request.FILES)
        raw = lab_form.with_lab_results(profile_from_echo(result.profile.raw), text)
        anchored = recommendation_create(profile=parse_profile(raw))
    except PostedRefused as refused:
        return _refused_lab(request, result, [str(refused)])
    except ProfileError as problem:
        return _refused_lab(request, result, problem.lines())
    return redirect(anchored.permalink)


def _refused_lab(request: HttpRequest, result: Result, problems: list[str]) -> TemplateResponse:
    return _refused_form(request, result, problems, "lab", lab_form.PASTE, lab_form.MAX_TEXT_BYTES)


def _refused_list(request: HttpRequest, result: Result, problems: list[str]) -> TemplateResponse:
    return _refused_form(
        request, result, problems, "rds_list", rds_list.PASTE, rds_list.MAX_LIST_BYTES
    )


def _refused_form(
    request: HttpRequest,
    result: Result,
    problems: list[str],
    form: str,
    paste: str,
    max_bytes: int,
) -> TemplateResponse:
    """The result page again, 400, with one of its forms open: its problems (`<form>_problems`)
    and the pasted text kept when it is small enough to show again (`<form>_text`)."""
    pasted = request.POST.get(paste, "")
    keep = pasted if isinstance(pasted, str) and len(pasted) <= max_bytes else ""
    offered, comparison = compare(result, "", recommendation_compute)
    context: dict[str, object] = {"result": result, "whatifs": offered, "comparison": comparison}
    context |= {f"{form}_problems": problems[:MAX_PROBLEMS_SHOWN], f"{form}_text": keep}
    return _full_page(request, result, context, status=400)


@require_GET
@limited_by(get_cost)
def sources_page(request: HttpRequest) -> TemplateResponse:
    cited_by: dict[str, list[str]] = {}
    for rule in all_rules():
        for key in dict.fromkeys(rule.sources):
            cited_by.setdefault(key, []).append(rule.id)
    entries = [(entry, cited_by.get(entry.key, [])) for entry in all_sources()]
    return TemplateResponse(request, "recommendations/sources.html", {"entries": entries})


def _stored(recommendation_id: str) -> Result:
    try:
        return recommendation_get(recommendation_id=recommendation_id)
    except Recommendation.DoesNotExist:
        raise Http404("no such result") from None


def _base_url(request: HttpRequest) -> str:
    return request.build_absolute_uri("/").rstrip("/")
