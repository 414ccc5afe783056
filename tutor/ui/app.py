"""The Textual app: a factory for it (`make_app`) and the entry point of `jaxstate-tutor` (`run_app`)."""

from __future__ import annotations

import asyncio
import os
import signal
import threading
from collections.abc import Iterable, Mapping
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from textual import events, work
from textual.app import SystemCommand
from textual.binding import Binding
from textual.command import CommandPalette, DiscoveryHit, Hits
from textual.notifications import SeverityLevel
from textual.reactive import reactive
from textual.screen import Screen
from textual.system_commands import SystemCommandsProvider

from tutor.errors import TutorError
from tutor.i18n import LANGS, Bilingual, pick
from tutor.progress import changes
from tutor.progress.path import Step, checkpoint_questions
from tutor.ui import collector
from tutor.ui.app_protocol import TutorAppLike
from tutor.ui.key_order import KeyQueue
from tutor.ui.keys import translate_bindings
from tutor.ui.mark_styles import Marks
from tutor.ui.saving import save_in_background
from tutor.ui.session import Session
from tutor.ui.text_layout import use_cjk_line_breaking
from tutor.ui.texts import say

if TYPE_CHECKING:
    from textual.actions import ActionParseResult
    from textual.dom import DOMNode

IDLE_CHECK_S = 30.0  # how often an idle spare worker is looked for
WORKER_IDLE_S = 300.0  # a spare unused this long, away from every screen that runs code, is closed


class CourseCommands(SystemCommandsProvider):
    """The palette's list before anything is typed, in the course's order (Textual's own provider
    sorts by title: 6.1, 6.10, 6.2, ...)."""

    async def discover(self) -> Hits:
        for name, help_text, callback, discover in self.app.get_system_commands(self.screen):
            if discover:
                yield DiscoveryHit(name, callback, help=help_text)


class TutorApp(TutorAppLike):
    """Outline, lessons, exercises, quiz and progress of the JAX state course.

    TutorAppLike is Textual's App; to mypy it adds what screens and widgets use of this app."""

    COMMANDS = {CourseCommands}

    CSS_PATH = "app.tcss"
    BINDINGS = [
        Binding("f1", "help", "Help"),
        Binding("ctrl+l", "toggle_lang", "中文"),
    ]

    lang: reactive[str] = reactive("en", init=False)

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = False,
    ) -> None:
        """A notification is text unless its caller asks for markup: a path or a program's words
        holding "[/x]" (a home's path, say) made Textual raise MarkupError."""
        super().notify(message, title=title, severity=severity, timeout=timeout, markup=markup)

    async def run_action(
        self,
        action: str | ActionParseResult,
        default_namespace: DOMNode | None = None,
        namespaces: Mapping[str, DOMNode] | None = None,
    ) -> bool:
        """Every key binding's action comes through here: the app's one handler of the tutor's own
        errors (cli/main has the command line's). A TutorError escaping an action is told as its
        message, in the learner's language, and the learner stays where they were: no traceback,
        and the app goes on (the same error at the command line is its message and exit code)."""
        try:
            return await super().run_action(action, default_namespace, namespaces)
        except TutorError as exc:
            self.notify(pick(exc.message, self.lang), severity="error", timeout=15)
            return True

    def __init__(self, session: Session, lang: str, course_given: bool, worker_idle_s: float | None = None):
        super().__init__()
        self.session = session
        # None (the terminal): the spare and fork server go once the learner has left the screens
        # that run code for WORKER_IDLE_S. A number (`serve`: many learners on one box): they go
        # after that long with no code run, on any screen; the next run then starts them afresh.
        self.worker_idle_s = worker_idle_s
        self.marks = Marks()
        self._course_given = course_given
        self._when_loaded: Step | None = None  # asked for before the course was parsed
        self.set_reactive(TutorApp.lang, lang if lang in LANGS else "en")
        self.title = self.course_title()
        self.keys = KeyQueue(self, super().on_event)

    async def on_event(self, event: events.Event) -> None:
        """Keys and pastes from the terminal go through the key queue, one at a time and in order."""
        if isinstance(event, events.Key | events.Paste):
            if not event.is_forwarded:
                if not self.app_focus:
                    # Textual's own rule (a key means the app has the focus), which it applies only
                    # when the key is handed on: the queue must see the focus back before it waits for it.
                    self.app_focus = True
                self.keys.arrive(event)
                return
            await super().on_event(event)  # bubbled up from the focused widget: the bindings run
            self.keys.done(event)
            return
        await super().on_event(event)

    # ---- start and stop ------------------------------------------------------------------

    def get_default_screen(self) -> Screen:
        from tutor.ui.screens.outline import OutlineScreen

        return OutlineScreen()

    def on_mount(self) -> None:
        translate_bindings(self, self.lang)
        self._exit_on_signals()
        if not self._course_given:
            self.load_course()
        else:
            self.call_after_refresh(collector.settle)  # the course and the first screen are made
            if self.session.problems:
                self.show_problems()
        every = IDLE_CHECK_S if self.worker_idle_s is None else min(IDLE_CHECK_S, max(0.5, self.worker_idle_s / 4))
        self.set_interval(every, self._give_back_idle_worker)
        self._note_host()
        self._note_private_home()

    def _note_private_home(self) -> None:
        """Once: a home that was open to other users has been made private (tutor.files.private)."""
        note = self.session.store.make_private()
        if note is not None:
            self.notify(pick(note, self.lang), severity="warning", timeout=15, markup=False)

    def _note_host(self) -> None:
        """Once, as the tutor opens: the guards this host cannot give (none on Linux with /proc)."""
        from tutor import host

        notice = host.guards_off_notice()
        if notice:
            self.notify(pick(Bilingual(en=notice[0], zh=notice[1]), self.lang), severity="warning", timeout=15)

    def _exit_on_signals(self) -> None:
        """SIGTERM, SIGHUP (a dropped SSH connection, tmux kill-session) and SIGINT end the app the
        ordinary way: the driver leaves the alternate screen and mouse mode, running checks are
        stopped and the spare worker closed. Without this the process died where it stood."""
        if self.is_headless:
            return  # tests drive the app in-process: the test runner's signals are its own
        loop = asyncio.get_running_loop()

        def on_signal(sig: int) -> None:
            self.session.close()  # the workers first: the app's own shutdown can take seconds on a busy machine
            # Should the shutdown still stick on a dead terminal, end anyway: nothing is left to save.
            last_resort = threading.Timer(10.0, os._exit, (128 + sig,))
            last_resort.daemon = True  # a normal exit does not wait for it
            last_resort.start()
            self.exit(return_code=128 + sig)

        def handler(sig: int, frame) -> None:
            # Not loop.add_signal_handler: this runs at once, before Textual's SIGCONT handler,
            # which a hung-up terminal also triggers and which would re-enter application mode
            # mid-shutdown (seen to deadlock the driver's writer thread on the dead terminal).
            signal.signal(signal.SIGCONT, signal.SIG_DFL)
            loop.call_soon_threadsafe(on_signal, sig)

        for sig in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
            try:
                signal.signal(sig, handler)
            except (ValueError, OSError):
                pass  # not the main thread, or a platform without them

    def watch_app_focus(self, focus: bool) -> None:
        """The focus back with no widget focused: focus the screen's first, as on mount. Textual
        auto-focuses only while the app has the focus, and its web driver starts blurred (a served
        outline came up with nothing focused: arrows and Enter did nothing); on return it restores
        only a widget that was focused when the focus went."""
        if focus and self.screen_stack and self.screen.focused is None:
            self.screen.focus_next()

    def want_worker(self) -> None:
        """A screen that runs code is showing: make a spare worker ready in the background, so that
        its first run does not wait for Python and the JAX import. The outline, progress and quiz
        never ask, so a tutor left there holds no worker (a class on one box: ~150 MB each)."""
        self.session.worker_wanted()
        self.run_worker(self.session.warm_up, thread=True, group="warm-up", exit_on_error=False)

    def _give_back_idle_worker(self) -> None:
        """A spare nobody asked for in WORKER_IDLE_S (no screen that runs code shown, no run) is
        closed, with its fork server; with worker_idle_s, one no run asked for in that long."""
        if not self.session.holds_workers():
            return
        if self.worker_idle_s is not None:
            idle = self.session.worker_idle(self.worker_idle_s)
        else:
            idle = self.session.worker_idle(WORKER_IDLE_S) and not self.screen_runs_code()
        if idle:
            self.run_worker(self.session.release_spare, thread=True, group="warm-up", exit_on_error=False)

    def screen_runs_code(self) -> bool:
        runs_code = getattr(self.screen, "runs_code", None)
        return bool(runs_code and runs_code())

    @work(thread=True, group="load", exit_on_error=False)
    def load_course(self) -> None:
        """Parse the course YAML off the UI thread; problems are shown, never raised."""
        from tutor.course import Course, read_course
        from tutor.course.reader import Problem

        root = self.session.course_root
        try:
            course, problems = read_course(root)
        except Exception as exc:  # noqa: BLE001 - a broken course must not crash the app
            course = Course(root=root, lessons=(), exercises=(), quiz=())
            problems = [Problem("lessons", 0, f"the course could not be loaded: {exc}")]
        self.call_from_thread(self.course_loaded, course, problems)

    def course_title(self) -> str:
        """The header's title: the course's own (lessons/course.yaml), the tutor's name until it is read."""
        course = self.session.course
        return course.title.get(self.lang) if course is not None else say("app_title", self.lang)

    def course_loaded(self, course, problems) -> None:
        self.session.course = course
        self.session.problems = list(problems)
        self.title = self.course_title()
        self.refresh_screens()
        self.call_after_refresh(collector.settle)  # the course and the first screen are made
        if problems:
            self.show_problems()
        elif self._when_loaded is not None:
            step, self._when_loaded = self._when_loaded, None
            self.open_step(self.continue_step() if step.kind == "continue" else step)

    def show_problems(self) -> None:
        from tutor.ui.screens.problems import ProblemsScreen

        self.push_screen(ProblemsScreen())

    def on_unmount(self) -> None:
        self.session.close()
        collector.unsettle()

    # ---- language --------------------------------------------------------------------------

    def watch_lang(self, lang: str) -> None:
        self.title = self.course_title()
        translate_bindings(self, lang)
        self.refresh_screens()

    def refresh_screens(self) -> None:
        """Re-render every screen on the stack (texts, marks, labels)."""
        for screen in self.screen_stack:
            apply = getattr(screen, "apply_lang", None)
            if apply is not None:
                apply()
        self.refresh_bindings()

    def action_toggle_lang(self) -> None:
        self.lang = "en" if self.lang == "zh" else "zh"

    def get_key_display(self, binding: Binding) -> str:
        """F5 and ^R rather than f5 and ^r: how keyboards and manuals spell them."""
        shown = super().get_key_display(binding)
        if shown.startswith("^") or (shown[:1] == "f" and shown[1:].isdigit()):
            return shown[0].upper() + shown[1:].upper() if shown.startswith("^") else shown.upper()
        return shown

    # ---- navigation ------------------------------------------------------------------------

    def action_help(self) -> None:
        from tutor.ui.screens.help import HelpScreen

        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen())

    def open_scratch(self, cell) -> None:
        """A copy of a demo cell to change and run (`e` on a cell)."""
        from tutor.ui.screens.scratch import ScratchScreen

        self.push_screen(ScratchScreen(cell))

    def open_step(self, step: Step) -> None:
        """Open a lesson, checkpoint, exercise, the quiz or the progress screen on top of the outline."""
        if self.session.course is None and step.kind != "progress":
            self._when_loaded = step  # a key pressed while the course is still loading: done once it is
            return
        if step.kind == "continue":
            step = self.continue_step()
        screen = self.screen_for(step)
        if screen is None:
            if step.kind == "quiz":
                self.notify(say("quiz_missing", self.lang))
            return
        while len(self.screen_stack) > 1:
            self.pop_screen()
        self.push_screen(screen)
        if step.kind != "progress":
            # Where `continue` resumes; written off the UI thread (an fsync on a slow home must not stall it).
            save_in_background(self, self.session.state.change(changes.position, step.key))

    def screen_for(self, step: Step, at_cell: str | None = None) -> Screen | None:
        """The screen of a step; a lesson opens at `at_cell` (a demo cell's id) when one is given."""
        course = self.session.course
        if step.kind == "progress":
            from tutor.ui.screens.progress import ProgressScreen

            return ProgressScreen()
        if course is None:
            return None
        if step.kind == "lesson" and course.lesson(step.id):
            from tutor.ui.screens.lesson import LessonScreen

            return LessonScreen(course.lesson(step.id), at_cell=at_cell)
        if step.kind == "exercise" and course.exercise(step.id):
            from tutor.ui.screens.exercise import ExerciseScreen

            return ExerciseScreen(course.exercise(step.id))
        if step.kind == "checkpoint" and checkpoint_questions(course, step.id):
            from tutor.ui.screens.quiz import QuizScreen

            return QuizScreen(checkpoint_questions(course, step.id), checkpoint=step.id)
        if step.kind == "quiz" and course.quiz:
            from tutor.ui.screens.quiz import QuizScreen

            return QuizScreen()
        return None

    def continue_step(self) -> Step:
        """Where `c` on the outline goes: the step last opened if unfinished, else the next one."""
        course = self.session.course
        if course is None:
            return Step("continue")  # resolved by open_step once the course has loaded
        return self.session.progress.next_step() or Step("progress")

    def step_after(self, here: Step) -> Step:
        """The step after `here` on the path (the progress screen once everything is done)."""
        course = self.session.course
        if course is None:
            return Step("continue")  # resolved by open_step once the course has loaded
        return self.session.progress.next_step(here) or Step("progress")

    def go_on_from(self, here: Step) -> None:
        """`c` / Ctrl+N inside a lesson, checkpoint, exercise or the quiz: open the next step."""
        self.open_step(self.step_after(here))

    def step_title(self, step: Step) -> str:
        """How a step is named in prompts: "6.2 Why mutable state…", "Exercise: …", "Checkpoint 6.2"."""
        course, lang = self.session.course, self.lang
        if step.kind == "lesson" and course and (lesson := course.lesson(step.id)):
            return f"{step.id} {lesson.title.get(lang)}"
        if step.kind == "exercise" and course and (exercise := course.exercise(step.id)):
            return say("step_exercise", lang, title=exercise.title.get(lang))
        if step.kind == "checkpoint":
            return say("step_checkpoint", lang, id=step.id)
        if step.kind == "quiz":
            return say("quiz", lang)
        return say("progress_title", lang)

    def action_command_palette(self) -> None:
        """Textual's palette, its search prompt in the learner's language (it is English in Textual)."""
        if self.use_command_palette and not CommandPalette.is_open(self):
            self.push_screen(CommandPalette(placeholder=say("palette_search", self.lang), id="--command-palette"))

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        """The command palette: every place in the course, plus the app's own actions."""
        lang = self.lang
        yield SystemCommand(say("continue_cmd", lang), "", lambda: self.open_step(Step("continue")))
        yield SystemCommand(say("progress_title", lang), "", lambda: self.open_step(Step("progress")))
        yield SystemCommand("中文 / English", "", self.action_toggle_lang)
        yield SystemCommand(say("help_title", lang), "", self.action_help)
        served_file = getattr(screen, "served_file", None)
        if self.is_web and served_file is not None:  # the file is on the server: the page moves it
            name = served_file()
            # Opened by the page (tutor/serve/page.html): a download, or its upload form.
            yield SystemCommand(
                say("download_cmd", lang, name=name), say("download_help", lang), partial(self.open_url, f"file/{name}")
            )
            yield SystemCommand(
                say("upload_cmd", lang, name=name),
                say("upload_help", lang),
                partial(self.open_url, f"file/{name}#upload", new_tab=False),
            )
        course = self.session.course
        if course is not None:
            for lesson in course.lessons:
                yield SystemCommand(
                    f"{lesson.id} {lesson.title.get(lang)}",
                    say("lessons", lang),
                    partial(self.open_step, Step("lesson", lesson.id)),
                )
            for ex in course.exercises:
                yield SystemCommand(
                    f"{ex.id}: {ex.title.get(lang)}",
                    say("exercises", lang),
                    partial(self.open_step, Step("exercise", ex.id)),
                )
            for lesson in course.lessons:
                if checkpoint_questions(course, lesson.id):
                    yield SystemCommand(
                        say("step_checkpoint", lang, id=lesson.id),
                        say("checkpoints", lang),  # not "Quiz": a course may have checkpoints and no quiz
                        partial(self.open_step, Step("checkpoint", lesson.id)),
                    )
            if course.quiz:
                yield SystemCommand(say("quiz", lang), "", lambda: self.open_step(Step("quiz")))
        yield from super().get_system_commands(screen)


def make_app(
    home: Path,
    lang: str,
    mouse: bool = True,
    course=None,
    sandbox=None,
    accelerator: bool = False,
    worker_idle_s: float | None = None,
    shared_seat: bool = False,
    clock=None,
    course_root: Path | None = None,
) -> TutorApp:
    """Build the app for a learner home.

    `course` skips loading (a Course, or read_course's (course, problems)); `sandbox` shares one
    between apps (tests). Mouse reporting is chosen when running: `app.run(mouse=...)`. `clock`:
    the learner's day for the review (tests move it; default the local date).
    """
    use_cjk_line_breaking()
    problems = []
    if course is not None and isinstance(course, tuple):  # (course, problems) from read_course
        course, problems = course
    app = TutorApp(
        Session(
            Path(home),
            course=course,
            problems=problems,
            sandbox=sandbox,
            accelerator=accelerator,
            shared_seat=shared_seat,
            clock=clock,
            course_root=course_root,
        ),
        lang,
        course_given=course is not None,
        worker_idle_s=worker_idle_s,
    )
    return app


def run_app(
    home: Path,
    lang: str,
    mouse: bool = True,
    accelerator: bool = False,
    worker_idle_s: float | None = None,
    shared_seat: bool = False,
    course_root: Path | None = None,
    clock=None,
) -> int:
    """Run the TUI until the learner quits; the exit code for the command line. `clock`: the
    learner's day for the review, as main() was handed it (default the local date)."""
    import sys

    app = make_app(
        home,
        lang,
        mouse=mouse,
        accelerator=accelerator,
        worker_idle_s=worker_idle_s,
        shared_seat=shared_seat,
        course_root=course_root,
        clock=clock,
    )
    app.run(mouse=mouse)
    for note in app.session.after_exit:  # e.g. where unsaved code was kept: said once the terminal is back
        print(note, file=sys.stderr)
    return app.return_code or 0
