"""Every sentence the command line prints, in both languages; `say(key, lang, **fields)` picks one."""

from __future__ import annotations

from tutor.i18n import table

MSG = table(
    {
        "unknown_id": {"en": "unknown exercise '{id}'. Known: {known}", "zh": "没有名为 '{id}' 的练习。已有：{known}"},
        "course_broken": {
            "en": "the course has problems (run `jaxstate-tutor validate`):",
            "zh": "课程文件有问题（运行 `jaxstate-tutor validate` 查看）：",
        },
        "course_is_code": {
            "en": "note: {root} is a course of its own, not the one shipped with the tutor. A course is code: its "
            "checks (checks.py, its import-time code too) and its lessons' cells run on this machine, as you, "
            "whenever you check, watch, verify or open a lesson, and on every learner's file when you grade. "
            "They run confined as any check: {confined}. Use a course you would trust as a program you install. "
            "(Said once for this folder.)",
            "zh": "注意：{root} 是一门自己的课程，不是本教程自带的课程。课程就是代码：它的检查（checks.py，包括导入时运行的代码）"
            "和课文中的代码单元会以你的身份在这台机器上运行：每次检查、watch、verify 或打开课文时都会运行，评分时还会对每个学生的"
            "文件运行。它们和任何检查一样受到限制：{confined}。请只使用你像信任一个要安装的程序那样信任的课程。"
            "（这个文件夹只提示这一次。）",
        },
        "course_confined_sep": {"en": "; ", "zh": "；"},
        "course_confined_rules": {
            "en": "they may read only their own run folder, the compilation cache, the course's lessons/ (never its "
            "solutions/ or tests/), the Python installation with its packages, the system folders Python reads "
            "(/usr, /lib, /bin, /sbin, /etc, /sys, a few devices of /dev) and of /proc only their own entries and the "
            "machine's (cpuinfo, meminfo...): no home of yours or anyone's, no other run, no other process; they may write only their run folder and the "
            "compilation cache, open no socket beyond the pipe the tutor gives them, keep no shared memory past "
            "the run, inherit no environment variable but an allowed few, and signal or reschedule only their own "
            "processes",
            "zh": "它们只能读取自己的运行文件夹、编译缓存、课程的 lessons/（绝不包括它的 solutions/ 或 tests/）、Python 安装及其包、"
            "Python 读取的系统文件夹（/usr、/lib、/bin、/sbin、/etc、/sys，以及 /dev 中的少数设备）以及 /proc 中它们自己的条目和关于这台机器的几个文件（cpuinfo、meminfo……）："
            "看不到你或任何人的主目录、其他运行和其他进程；它们只能写自己的运行文件夹和编译缓存，除了本教程给它们的管道之外不能打开"
            "套接字，运行结束后不能留下共享内存，只继承允许的少数环境变量，只能向自己的进程发信号或调整它们的调度",
        },
        "course_confined_landlock": {
            "en": "the kernel holds the file rules (Landlock, ABI {abi})",
            "zh": "文件规则由内核执行（Landlock，ABI {abi}）",
        },
        "course_confined_hook": {
            "en": "this system has no Landlock, so the tutor's audit hook holds the file rules and refuses starting "
            "programs and loading C (code that calls C at a raw address gets past it)",
            "zh": "本系统没有 Landlock，所以文件规则由本教程的审计钩子执行，它拒绝启动程序和加载 C"
            "（在原始地址上调用 C 的代码能绕过它）",
        },
        "course_confined_seccomp": {
            "en": "a seccomp filter holds those on sockets, System V IPC and scheduling",
            "zh": "套接字、System V IPC 和调度的规则由 seccomp 过滤器执行",
        },
        "course_confined_no_seccomp": {
            "en": "this system takes no seccomp filter, so only Python's own sockets are refused (by the audit hook), "
            "not those made in C",
            "zh": "本系统不支持 seccomp 过滤器，所以只有 Python 自己的套接字会被（审计钩子）拒绝，C 中创建的不会",
        },
        "course_confined_grade": {
            "en": "and `grade` runs them inside bubblewrap too where it runs here (no network, no home in view)",
            "zh": "在这里能运行 bubblewrap 时，`grade` 还会在 bubblewrap 中运行它们（没有网络，看不到主目录）",
        },
        "bad_seconds": {
            "en": "must be a number of seconds above 0 and at most 604800 (a week), not {value!r}",
            "zh": "必须是大于 0、不超过 604800（一周）的秒数，而不是 {value!r}",
        },
        "empty_folder": {
            "en": "an empty word names no folder (it would be the current one); write the folder's path.",
            "zh": "空字符串不是任何文件夹（会被当成当前文件夹）；请写出文件夹的路径。",
        },
        "home_no_such_user": {
            "en": "{where}: there is no such user on this machine, so '~user' names no folder; "
            "write the folder's full path.",
            "zh": "{where}：这台机器上没有这个用户，所以 '~用户名' 不是任何文件夹；请写出文件夹的完整路径。",
        },
        "progress_warning": {"en": "warning: {w}", "zh": "警告：{w}"},
        "file_created": {
            "en": "Created {path} from the starter code; edit it, then check again.",
            "zh": "已用起始代码创建 {path}；修改它，然后再检查。",
        },
        "file_was_missing": {
            "en": "note: {path} was missing (deleted?), so it was written again from the starter code; "
            "older versions, if any, are in {backups}.",
            "zh": "注意：{path} 不见了（被删除了？），所以重新写入了起始代码；以前的版本（如果有）在 {backups}。",
        },
        # list
        "checkpoint": {
            "en": "checkpoint: {n} questions on this section, in the TUI ({score})",
            "zh": "小测：本节 {n} 道题，在 TUI 中作答（{score}）",
        },
        "list_quiz": {"en": "[bold]Quiz[/bold]: {a}/{n} answered, {s}", "zh": "[bold]测验[/bold]：已答 {a}/{n}，{s}"},
        # progress
        "exercises_passed": {"en": "Exercises passed: {passed}/{total}", "zh": "练习：通过 {passed}/{total}"},
        "exercise_tries": {
            "en": "attempts: {attempts}, hints: {hints}",
            "zh": "尝试 {attempts} 次，提示 {hints} 条",
        },
        "solution_viewed": {"en": ", solution viewed", "zh": "，看过答案"},
        "quiz_rounds": {"en": "Quiz: {score}; rounds taken: {rounds}", "zh": "测验：{score}，作答 {rounds} 轮"},
        "checkpoint_score": {"en": "Checkpoint {lesson}: {score}", "zh": "第 {lesson} 节小测：{score}"},
        "predictions": {"en": "Predictions: {right} of {made} right", "zh": "预测：{made} 次，猜对 {right} 次"},
        # hint, solution, reset
        "hint_of": {"en": "Hint {n} of {total}", "zh": "提示 {n}/{total}"},
        "no_more_hints": {
            "en": "That was the last hint; `jaxstate-tutor solution {id}` shows the reference solution.",
            "zh": "提示已经全部给出；`jaxstate-tutor solution {id}` 可以查看参考答案。",
        },
        "solution_confirm": {
            "en": "You have not passed '{id}' yet. Show the reference solution anyway? [y/N] ",
            "zh": "你还没有通过 '{id}'。仍然要查看参考答案吗？[y/N] ",
        },
        "solution_unasked": {
            "en": "(not passed yet, and no terminal to ask: shown anyway, and your progress notes that you viewed it)",
            "zh": "（尚未通过，且没有终端可以询问：仍然显示，进度里会记下你看过参考答案）",
        },
        "solution_declined": {
            "en": "Not shown. Keep going; `jaxstate-tutor hint {id}` gives a nudge.",
            "zh": "未显示。继续加油；`jaxstate-tutor hint {id}` 可以给你提示。",
        },
        "reset_done": {"en": "Reset {path} to the starter code.", "zh": "已把 {path} 恢复为起始代码。"},
        "reset_backup": {"en": "Your previous code is kept at {path}", "zh": "你之前的代码保存在 {path}"},
        # watch
        "watching": {
            "en": "Watching {path}; every save re-runs the checks. Ctrl+C stops.",
            "zh": "正在监视 {path}；每次保存都会重新检查。按 Ctrl+C 退出。",
        },
        "all_passed": {"en": "Every exercise is passed. Well done!", "zh": "所有练习都已通过，干得漂亮！"},
        "watch_next": {
            "en": "Passed! Next on the path: {id} ({title}). Press Enter to watch it, or Ctrl+C to stop.",
            "zh": "通过！路线上的下一道练习：{id}（{title}）。按 Enter 开始监视它，或按 Ctrl+C 停止。",
        },
        "watch_checked_elsewhere": {
            "en": "{path} changed: another window (the tutor) saved it to check it there, so it is not checked twice.",
            "zh": "{path} 已更改：另一个窗口（教程界面）保存它是为了在那里检查，所以这里不再重复检查。",
        },
        "watch_last": {
            "en": "Passed! That was the last exercise on the path. Ctrl+C stops watching.",
            "zh": "通过！这是路线上的最后一道练习。按 Ctrl+C 停止监视。",
        },
        "file_vanished": {
            "en": "{path} was deleted (by your program?); it was written back as last checked.",
            "zh": "{path} 被删除了（是你的程序删的吗？）；已按最近一次检查时的内容写回。",
        },
        "file_vanished_lost": {
            "en": "{path} was deleted (by your program?) and could not be written back: {why}",
            "zh": "{path} 被删除了（是你的程序删的吗？），且无法写回：{why}",
        },
        # validate, verify
        "valid": {"en": "{n} files, no problems.", "zh": "{n} 个文件，没有问题。"},
        "problems": {"en": "{n} problems found.", "zh": "发现 {n} 个问题。"},
        "verify_ok": {
            "en": "verify: {n} exercises, every solution passes and every starter fails.",
            "zh": "verify：{n} 个练习，参考答案全部通过，起始代码全部不通过。",
        },
        "verify_start": {
            "en": "verify: {runs} runs, {jobs} at a time; each is shown as it ends.",
            "zh": "verify：共 {runs} 次运行，每次同时 {jobs} 个；每次运行结束时显示结果。",
        },
        "verify_bad": {"en": "verify: {n} problems.", "zh": "verify：发现 {n} 个问题。"},
        "verify_ok_pass": {"en": "(passes, as it should)", "zh": "（通过，符合预期）"},
        "verify_ok_fail": {"en": "(fails, as it should)", "zh": "（不通过，符合预期）"},
        "verify_bad_pass": {"en": "[red]should pass[/red]", "zh": "[red]应当通过[/red]"},
        "verify_bad_fail": {"en": "[red]should fail[/red]", "zh": "[red]应当不通过[/red]"},
        # new-exercise, new-course
        "installed_course": {
            "en": "{root} is the course inside the installed package, which the next install replaces; "
            "write exercises in a course of your own (`jaxstate-tutor new-course DIR`, then --course DIR) "
            "or in a clone of the repository.",
            "zh": "{root} 是已安装的包里的课程，下次安装时会被覆盖；请在你自己的课程里写练习"
            "（`jaxstate-tutor new-course DIR`，然后加 --course DIR），或者在仓库的克隆里写。",
        },
        "scaffold_wrote": {"en": "Wrote {n} files under {root}:", "zh": "已在 {root} 下写入 {n} 个文件："},
        "new_exercise_next": {
            "en": "`validate` is clean on them, and `jaxstate-tutor {course}verify {id}` fails until you write the "
            "solution, the checks (checks.py and its names in exercise.yaml) and the cases (every TODO); "
            "run it until it is green.",
            "zh": "`validate` 对它们没有意见；在你写好参考答案、检查（checks.py 及 exercise.yaml 中的名称）"
            "和用例（每个 TODO）之前，`jaxstate-tutor {course}verify {id}` 都不会通过；反复运行它，直到全部通过。",
        },
        "new_course_next": {
            "en": "Try it: `jaxstate-tutor --course {dir} list`, then `verify` and `validate` the same way; "
            "add an exercise with `jaxstate-tutor --course {dir} new-exercise ID --lesson 1`.",
            "zh": "试试看：`jaxstate-tutor --course {dir} list`，再同样运行 `verify` 和 `validate`；"
            "用 `jaxstate-tutor --course {dir} new-exercise ID --lesson 1` 添加练习。",
        },
        "drill_score": {"en": "Spot the bug {lesson}: {score}", "zh": "第 {lesson} 节找错：{score}"},
        # review (tutor/cli/review.py)
        "review_today": {
            "en": "{n} to review today (jaxstate-tutor review)",
            "zh": "今天有 {n} 道题要复习（jaxstate-tutor review）",
        },
        "review_is_off": {
            "en": "Review is off: questions answered wrong do not come back. `jaxstate-tutor review --on` turns it on.",
            "zh": "复习已关闭：答错的题不会再出现。`jaxstate-tutor review --on` 可重新打开。",
        },
        "review_turned_off": {
            "en": "Review is off. Its schedule is kept: `jaxstate-tutor review --on` brings it back.",
            "zh": "复习已关闭。复习计划会保留：`jaxstate-tutor review --on` 可恢复。",
        },
        "review_turned_on": {"en": "Review is on.", "zh": "复习已打开。"},
        "review_nothing": {"en": "Nothing to review today.", "zh": "今天没有要复习的题。"},
        "review_next": {"en": "Next review: {day}", "zh": "下次复习：{day}"},
        "review_head": {"en": "Review {i}/{n} · {where}", "zh": "复习 {i}/{n} · {where}"},
        "review_in_checkpoint": {"en": "checkpoint {lesson}", "zh": "第 {lesson} 节小测"},
        "review_in_quiz": {"en": "the quiz", "zh": "测验"},
        "review_in_drill": {"en": "spot the bug, lesson {lesson}", "zh": "找错，第 {lesson} 节"},
        "review_drill_intro": {
            "en": "This program for “{exercise}” fails one check.",
            "zh": "这段为“{exercise}”写的程序有一项检查不通过。",
        },
        "review_drill_line": {"en": "Which line holds the mistake? (1-{n}): ", "zh": "错误在哪一行？（1-{n}）："},
        "review_drill_line_right": {"en": "Line {n}: right.", "zh": "第 {n} 行：对了。"},
        "review_drill_line_wrong": {
            "en": "The mistake is on line {n}: {code}",
            "zh": "错误在第 {n} 行：{code}",
        },
        "review_drill_belief": {"en": "What belief would write it?", "zh": "写出这一行的人是怎么想的？"},
        "review_computing_drill": {"en": "(running it in a worker…)", "zh": "（正在 worker 中运行……）"},
        "review_drill_check": {"en": "What the check “{name}” says:", "zh": "检查“{name}”的说法："},
        "review_drill_run_said": {"en": "The run ended: {why}", "zh": "运行结束：{why}"},
        "review_letter": {"en": "Your answer ({letters}): ", "zh": "你的答案（{letters}）："},
        "review_number": {"en": "Your answer (a number): ", "zh": "你的答案（一个数）："},
        "review_computing": {"en": "(working out the answer in a worker…)", "zh": "（正在用 worker 算出答案……）"},
        "review_not_computed": {
            "en": "The run that answers this question failed ({why}): it is not judged, and stays due.",
            "zh": "算出这道题答案的运行失败了（{why}）：这道题不评判，仍然待复习。",
        },
        "review_right": {"en": "Right!", "zh": "答对了！"},
        "review_wrong": {"en": "Not quite: the answer is {answer}.", "zh": "不对：答案是 {answer}。"},
        "review_stopped": {
            "en": "Stopped: the questions not answered stay due today.",
            "zh": "已停止：没答的题今天仍然待复习。",
        },
        "review_done": {"en": "Review: {score} of {n} right.", "zh": "复习：答对 {score}/{n} 题。"},
        "review_wrong_back": {
            "en": "The ones answered wrong come back tomorrow, in a form you have not seen.",
            "zh": "答错的题明天会再出现，换成你没见过的形式。",
        },
        # the TUI
        "no_tui": {
            "en": "The terminal UI cannot run here ({why}). Use the headless commands: "
            "`jaxstate-tutor list`, `check ID`, `watch ID`, `hint ID`.",
            "zh": "这里无法运行终端界面（{why}）。请使用命令行子命令："
            "`jaxstate-tutor list`、`check ID`、`watch ID`、`hint ID`。",
        },
        "not_a_terminal": {"en": "not a terminal", "zh": "不是终端"},
        "no_textual": {"en": "the textual package is not installed", "zh": "没有安装 textual 包"},
    }
)

say = MSG.say
