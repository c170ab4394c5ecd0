"""The wizard: start page, presets and the five steps. Every POST also works as a plain form.

With HTMX a step answers with the next step's fragment (and pushes its URL); without it, with a
redirect (post/redirect/get) to the next step, or back to the same one with its problems shown,
so back, forward and reload are plain GETs that render the draft kept in the session.
"""

from collections.abc import Collection

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect, push_url

from advisor.page_limits import page_limited
from advisor.recommendations.services import recommendation_create
from advisor.recommendations.wizard import probe
from advisor.recommendations.wizard.display import short_citation
from advisor.recommendations.wizard.forms import StepForm
from advisor.recommendations.wizard.posted_json import PostedRefused
from advisor.recommendations.wizard.presets import PRESETS, PRESETS_BY_SLUG
from advisor.recommendations.wizard.steps import (
    CURRENT_FORM,
    CURRENT_TEXT,
    SESSION_KEY,
    STEPS,
    STEPS_BY_SLUG,
    Step,
    draft_from_profile,
    draft_initial,
    draft_load,
    draft_save,
    draft_update,
    first_step_with_errors,
    neighbours,
    step_errors,
    validate,
)
from advisor.recommendations.wizard.summary import machine_summary
from rules.inputs.validation import parse_profile

# A change to one of these fields re-checks the others of its group (cross-field rules).
RELATED = [
    {"device_count", "raid_level"},
    {
        "media",
        "rpm",
        "flash_class",
        "volume_type",
        "provisioned_iops",
        "provisioned_mbps",
        "volume_size_gb",
    },
    {"random_read", "random_write"},
    {"point_select_qps", "threads"},
    {CURRENT_FORM, CURRENT_TEXT},
]


def is_fragment(request: HttpRequest) -> bool:
    """An HTMX swap (not a history restore, which wants the whole page)."""
    htmx = getattr(request, "htmx", None)
    return htmx is not None and bool(htmx) and not htmx.history_restore_request


@require_GET
def index(request: HttpRequest) -> TemplateResponse:
    return _index(request)


def _index(request: HttpRequest, *, problem: str = "", pasted: str = "") -> TemplateResponse:
    started = SESSION_KEY in request.session
    presets = [(p, short_citation(p.source) if p.source else "") for p in PRESETS]
    context = {
        "presets": presets,
        "started": started,
        "first_step": STEPS[0],
        "probe_problem": problem,
        "probe_pasted": pasted,
        "probe_max_kib": probe.MAX_PROBE_BYTES // 1024,
        # This site's own address, so the probe's one-line command can be copied as it stands.
        "site": request.build_absolute_uri("/").rstrip("/"),
    }
    return TemplateResponse(
        request, "recommendations/index.html", context, status=400 if problem else 200
    )


@require_POST
@page_limited
def probe_load(request: HttpRequest) -> HttpResponse:
    """Start from a probe: its JSON, pasted or uploaded, opens the steps pre-filled and marked."""
    try:
        text = probe.POSTED.text(request.POST, request.FILES)
        draft, report = probe.start_from(probe.read_document(text))
    except PostedRefused as refused:
        pasted = request.POST.get(probe.PASTE, "")
        keep = pasted if isinstance(pasted, str) and len(pasted) <= probe.MAX_PROBE_BYTES else ""
        return _index(request, problem=str(refused), pasted=keep)
    draft_save(request.session, draft)
    request.session[probe.SESSION_KEY] = report
    return redirect("wizard-step", step=STEPS[0].slug)


@require_POST
@page_limited
def preset_load(request: HttpRequest, slug: str) -> HttpResponse:
    """One click: the preset's result. With go=edit, the wizard filled with the preset instead."""
    preset = PRESETS_BY_SLUG.get(slug)
    if preset is None:
        raise Http404("no such preset")
    draft_save(request.session, draft_from_profile(preset.profile))
    request.session.pop(probe.SESSION_KEY, None)
    if request.POST.get("go") == "edit":
        return redirect("wizard-step", step=STEPS[0].slug)
    result = recommendation_create(profile=parse_profile(preset.profile))
    return redirect(result.permalink)


@require_POST
@page_limited
def wizard_reset(request: HttpRequest) -> HttpResponse:
    draft_save(request.session, draft_initial())
    request.session.pop(probe.SESSION_KEY, None)
    return redirect("wizard-step", step=STEPS[0].slug)


@never_cache  # back and forward must show the draft as it is now, not a cached page
@require_http_methods(["GET", "POST"])
@page_limited
def wizard_step(request: HttpRequest, step: str) -> HttpResponse:
    current = _step_or_404(step)
    if request.method == "GET":
        draft = draft_load(request.session)
        _, errors = validate(draft)
        everything = bool(request.GET.get("check"))
        return _render_step(request, current, draft, errors, report_all=everything)
    draft = draft_update(request.session, current, request.POST)
    go = request.POST.get("go", "next")
    previous, following = neighbours(current)
    if go == "back" and previous is not None:
        return _goto(request, previous)
    profile, errors = validate(draft)
    if step_errors(errors, current):
        if is_fragment(request):  # swapped in place, no history entry
            return _render_step(request, current, draft, errors, report_all=True)
        return _goto(request, current, check=True)  # a GET, so back never re-posts the form
    if go == "next" and following is not None:
        return _goto(request, following)
    if profile is None:  # an earlier step is incomplete (e.g. an expired session)
        first = first_step_with_errors(errors) or STEPS[0]
        return _goto(request, first, check=True)
    report = probe.profile_report(request.session, draft)
    if report:  # the probe's report, for the fields that kept its values
        reported, _ = validate(draft, report)
        profile = reported or profile
    result = recommendation_create(profile=profile)
    if is_fragment(request):
        return HttpResponseClientRedirect(result.permalink)
    return redirect(result.permalink)


@require_POST
@page_limited
def wizard_check(request: HttpRequest, step: str) -> HttpResponse:
    """Live validation of the field that changed: error slots and the summary, swapped OOB."""
    current = _step_or_404(step)
    draft = draft_update(request.session, current, request.POST)
    if not is_fragment(request):
        return redirect("wizard-step", step=current.slug)
    _, errors = validate(draft)
    trigger = request.htmx.trigger_name or ""
    names = next((group for group in RELATED if trigger in group), {trigger})
    form = _form(
        current, draft, errors, report=names, marks=probe.marks_for(request.session, draft)
    )
    fields = [form[name] for name in current.names if name in names]
    context = {"fields": fields, "summary": machine_summary(draft, errors), "step": current}
    return TemplateResponse(request, "recommendations/wizard.html#check", context)


def _step_or_404(slug: str) -> Step:
    try:
        return STEPS_BY_SLUG[slug]
    except KeyError:
        raise Http404("no such step") from None


def _form(
    step: Step,
    draft: dict[str, str],
    errors: dict[str, list[str]],
    *,
    report: Collection[str] | None,
    marks: dict[str, probe.Mark] | None = None,
) -> StepForm:
    check_url = reverse("wizard-check", kwargs={"step": step.slug})
    shown = step_errors(errors, step)
    return StepForm(step, draft, errors=shown, report=report, check_url=check_url, marks=marks)


def _render_step(
    request: HttpRequest,
    step: Step,
    draft: dict[str, str],
    errors: dict[str, list[str]],
    *,
    report_all: bool,
) -> TemplateResponse:
    typed = {name for name in step.names if draft.get(name, "").strip()}
    marks = probe.marks_for(request.session, draft)
    form = _form(step, draft, errors, report=None if report_all else typed, marks=marks)
    previous, following = neighbours(step)
    context = {
        "steps": STEPS,
        "step": step,
        "previous": previous,
        "following": following,
        "form": form,
        "summary": machine_summary(draft, errors),
        "complete": not errors,
        "fragment": is_fragment(request),
        "undetected": probe.undetected(request.session),
    }
    template = (
        "recommendations/wizard.html#step"
        if is_fragment(request)
        else "recommendations/wizard.html"
    )
    return TemplateResponse(request, template, context)


def _goto(request: HttpRequest, step: Step, *, check: bool = False) -> HttpResponse:
    url = reverse("wizard-step", kwargs={"step": step.slug}) + ("?check=1" if check else "")
    if not is_fragment(request):
        return redirect(url)
    draft = draft_load(request.session)
    _, errors = validate(draft)
    response = _render_step(request, step, draft, errors, report_all=check)
    return push_url(response, url)
