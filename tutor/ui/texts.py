"""Every text of the terminal UI, in both languages; `say(key, lang, **fields)` picks one."""

from __future__ import annotations

from tutor.i18n import table

UI = table(
    {
        # app and outline
        # the header before a course is read; after, the course's own title (lessons/course.yaml)
        "app_title": {"en": "jaxstate-tutor", "zh": "jaxstate-tutor"},
        "loading": {"en": "Loading the course…", "zh": "正在加载课程……"},
        "outline": {"en": "Outline", "zh": "目录"},
        "lessons": {"en": "Lessons", "zh": "章节"},
        "exercises": {"en": "Exercises", "zh": "练习"},
        "quiz": {"en": "Quiz", "zh": "测验"},
        "quiz_item": {
            "en": "Quiz: {n} questions · {answered} answered · {score}",
            "zh": "测验：共 {n} 题 · 已答 {answered} · {score}",
        },
        "checkpoints": {"en": "Checkpoints", "zh": "小测"},
        "quiz_missing": {"en": "This course has no quiz", "zh": "本课程没有测验"},
        "summary": {
            "en": "Lessons {ld}/{ln} · Exercises {ep}/{en} passed · Quiz {qb}",
            "zh": "章节 {ld}/{ln} · 练习通过 {ep}/{en} · 测验 {qb}",
        },
        "summary_no_quiz": {
            "en": "Lessons {ld}/{ln} · Exercises {ep}/{en} passed",
            "zh": "章节 {ld}/{ln} · 练习通过 {ep}/{en}",
        },
        "continue_to": {"en": "Continue: {what}", "zh": "继续：{what}"},
        "continue_cmd": {"en": "Continue where I left off", "zh": "从上次的位置继续"},
        "all_done": {"en": "Everything is done. Well done!", "zh": "全部完成，干得漂亮！"},
        "palette_search": {"en": "Search lessons, exercises and commands…", "zh": "搜索章节、练习和命令……"},
        "legend": {
            "en": "{new} new  {started} started  {done} done",
            "zh": "{new} 未开始  {started} 进行中  {done} 已完成",
        },
        "empty_course": {"en": "The course has nothing to show yet.", "zh": "课程暂时没有内容。"},
        # the path
        "step_exercise": {"en": "Exercise: {title}", "zh": "练习：{title}"},
        "step_checkpoint": {"en": "Checkpoint {id}", "zh": "第 {id} 节小测"},
        "checkpoint_item": {
            "en": "Checkpoint: {n} questions on this section · {score}",
            "zh": "小测：本节 {n} 道题 · {score}",
        },
        "next_is": {"en": "Next: {what}. Press c to go on.", "zh": "下一步：{what}。按 c 继续。"},
        "path_done": {
            "en": "That was the last step of the path. Well done!",
            "zh": "这是学习路线的最后一步，干得漂亮！",
        },
        # course problems
        "problems_title": {"en": "The course has problems", "zh": "课程文件有问题"},
        "problems_intro": {
            "en": "{n} problems were found in the course files. What loaded fine can still be used; "
            "`jaxstate-tutor validate` lists the same problems.",
            "zh": "课程文件中发现 {n} 个问题。加载成功的部分仍然可以使用；`jaxstate-tutor validate` 会列出同样的问题。",
        },
        # lesson
        "lesson_of": {"en": "Section {i} of {n}", "zh": "第 {i}/{n} 节"},
        "lesson_end": {"en": "End of section {id}.", "zh": "第 {id} 节结束。"},
        "skip_predictions": {
            "en": "Questions before a run not answered yet in this section: {n}. Press c again to go on "
            "without them; the section stays {mark} (not finished) until they are answered.",
            "zh": "本节还有 {n} 个运行前的问题没有回答。再按一次 c 就不答它们继续；在回答之前，本节保持 {mark}（未完成）。",
        },
        "lesson_exercises": {"en": "Practice for this section:", "zh": "本节练习："},
        "first_lesson": {"en": "This is the first section.", "zh": "这已经是第一节。"},
        "last_lesson": {"en": "This is the last section.", "zh": "这已经是最后一节。"},
        "lesson_gate": {
            "en": "The rest of the section appears once you answer this cell's question "
            "(Enter asks it; Esc then skips it).",
            "zh": "回答这个单元的问题之后，本节其余内容才会出现（按 Enter 提问，提问时按 Esc 可以跳过）。",
        },
        "lesson_gate_at": {
            "en": "Cell {cell} comes after the question of cell {gate}: answer that one first, or skip it with Esc.",
            "zh": "单元 {cell} 在单元 {gate} 的问题之后：请先回答那道题，或按 Esc 跳过。",
        },
        "no_cell_on_screen": {
            "en": "No cell on screen: Tab moves to the next one.",
            "zh": "屏幕上没有代码单元：按 Tab 跳到下一个。",
        },
        "no_exercises_here": {
            "en": "This section is a reading: it has no practice.",
            "zh": "本节是阅读材料，没有练习。",
        },
        # cells
        "cell": {"en": "Cell {id}", "zh": "代码单元 {id}"},
        "cell_hint": {"en": "Enter runs this cell", "zh": "按 Enter 运行此单元"},
        "cell_expect_raise": {
            "en": "This cell shows the wrong way: it is expected to raise {exc}.",
            "zh": "这个单元演示错误的写法：预期会抛出 {exc}。",
        },
        "running": {"en": "Running…", "zh": "运行中……"},
        "cell_raised": {"en": "raised {exc}", "zh": "抛出了 {exc}"},
        "cell_ok": {"en": "finished", "zh": "运行完成"},
        "cell_as_expected": {"en": " (as expected)", "zh": "（符合预期）"},
        "cell_not_as_expected": {"en": "not as the lesson says: {why}", "zh": "与课程描述不符：{why}"},
        # predict, then run
        "predict_ask": {"en": "Predict first:", "zh": "先预测一下："},
        "predict_keys_options": {
            "en": "{first}–{last} (or 1–{n}) to answer, then it runs · Esc skips and runs",
            "zh": "按 {first}–{last}（或 1–{n}）作答，随后运行 · Esc 跳过，直接运行",
        },
        "predict_keys_number": {
            "en": "type a number, Enter to answer, then it runs · Esc skips and runs",
            "zh": "输入一个数，按 Enter 作答，随后运行 · Esc 跳过，直接运行",
        },
        "predict_typed": {"en": "Your guess:", "zh": "你的预测："},
        "predict_why": {"en": "Why:", "zh": "为什么："},
        "predict_made": {
            "en": "You predicted {answer}. Enter runs the cell to see.",
            "zh": "你预测的是 {answer}。按 Enter 运行，看看结果。",
        },
        "predict_running": {"en": "You predicted {answer}…", "zh": "你预测的是 {answer}……"},
        "predict_right": {
            "en": "You predicted {answer} — the run shows {shown}. Right!",
            "zh": "你预测 {answer}，运行结果是 {shown}。猜对了！",
        },
        "predict_wrong": {
            "en": "You predicted {answer} — the run shows {shown}.",
            "zh": "你预测 {answer}，运行结果却是 {shown}。",
        },
        "predict_unseen": {
            "en": "You predicted {answer} — this run did not show the answer; see its output.",
            "zh": "你预测 {answer}，但这次运行没有给出答案，请看输出。",
        },
        "no_output": {"en": "(no output)", "zh": "（没有输出）"},
        "waiting_worker": {"en": "starting a worker (importing JAX)…", "zh": "正在启动工作进程（导入 JAX）……"},
        # exercise
        "task": {"en": "Task", "zh": "题目"},
        "code": {"en": "Code", "zh": "代码"},
        "results": {"en": "Results", "zh": "结果"},
        "your_file": {"en": "file: {path}", "zh": "文件：{path}"},
        # In a browser (`serve`) the file is on the server: named, not shown as a path to open.
        "your_file_web": {
            "en": "file: {name}, kept on the server in your tutor home: edit it here, in the Code view "
            "(^P: download it, or upload one in its place)",
            "zh": "文件：{name}，保存在服务器上你的教程数据目录中：请在这里的代码视图中编辑"
            "（^P：下载它，或上传一个文件替换它）",
        },
        "status_line": {
            "en": "{mark} {status} · attempts: {attempts} · hints {hints}/{total}",
            "zh": "{mark} {status} · 已尝试 {attempts} 次 · 提示 {hints}/{total}",
        },
        "st_new": {"en": "new", "zh": "未开始"},
        "st_attempted": {"en": "attempted", "zh": "尝试过"},
        "st_passed": {"en": "passed", "zh": "已通过"},
        "st_started": {"en": "started", "zh": "进行中"},
        "st_done": {"en": "done", "zh": "已完成"},
        "no_highlight": {
            "en": "Syntax highlighting is off: install tree-sitter and tree-sitter-python to get it.",
            "zh": "语法高亮未开启：安装 tree-sitter 和 tree-sitter-python 即可启用。",
        },
        # scratch copy of a lesson cell
        "scratch_title": {"en": "Scratch copy of cell {id}", "zh": "代码单元 {id} 的草稿"},
        "scratch_note": {
            "en": "Change the code, F5 runs it. The lesson and your progress stay as they are.",
            "zh": "随意修改代码，按 F5 运行。课程内容和学习进度都不会改变。",
        },
        "scratch_idle": {
            "en": "F5 (or Ctrl+R) runs your copy in a fresh worker.",
            "zh": "按 F5（或 Ctrl+R）在新的工作进程中运行你的副本。",
        },
        "scratch_running": {"en": "Running… F5 cancels", "zh": "运行中……按 F5 取消"},
        "scratch_no_run": {"en": "What the run prints appears here.", "zh": "运行时打印的内容会显示在这里。"},
        "scratch_reset": {
            "en": "The lesson's code is back (Ctrl+Z undoes this).",
            "zh": "已恢复课程里的代码（Ctrl+Z 可撤销）。",
        },
        "press_check": {"en": "Press F5 (or Ctrl+R) to check your code.", "zh": "按 F5（或 Ctrl+R）检查你的代码。"},
        "checking": {
            "en": "Checking… {done}/{total} checks (F7 cancels, F5 starts over)",
            "zh": "检查中…… {done}/{total} 项（F7 取消，F5 重新开始）",
        },
        "checking_device": {
            "en": "On the accelerator: it is opened for the first check, and again for one soon after "
            "the last (several seconds on a TPU).",
            "zh": "在加速器上运行：第一次检查、以及刚检查完又检查时，需要先打开加速器（TPU 上要几秒钟）。",
        },
        "check_passed": {"en": "Passed! c or Ctrl+N: {what}", "zh": "通过！按 c 或 Ctrl+N 继续：{what}"},
        # Served: a browser keeps Ctrl+N for a new window (tutor.ui.widgets.key_bar.BROWSER_KEEPS).
        "check_passed_web": {"en": "Passed! c: {what}", "zh": "通过！按 c 继续：{what}"},
        "check_passed_last": {
            "en": "Passed! Every step of the path is done.",
            "zh": "通过！学习路线的每一步都已完成。",
        },
        "passed_note": {"en": "Passed! c or Ctrl+N goes on", "zh": "通过！按 c 或 Ctrl+N 继续"},
        "passed_note_web": {"en": "Passed! c goes on", "zh": "通过！按 c 继续"},
        "not_passed_yet": {
            "en": "Pass the checks first (F5), or Esc for the outline.",
            "zh": "请先通过检查（F5），或按 Esc 回到目录。",
        },
        "hint_shown": {"en": "Hint {n}/{total} is in the task view.", "zh": "提示 {n}/{total} 已显示在题目视图中。"},
        "stdout": {"en": "Your program printed:", "zh": "你的程序输出："},
        "stderr": {"en": "Error output:", "zh": "错误输出："},
        "truncated": {"en": "(output truncated)", "zh": "（输出已截断）"},
        "hints_title": {"en": "Hints", "zh": "提示"},
        "hint_n": {"en": "Hint {n} of {total}", "zh": "提示 {n}/{total}"},
        "no_more_hints": {
            "en": "No more hints; F4 shows the reference solution.",
            "zh": "提示已经全部给出；按 F4 查看参考答案。",
        },
        "solution_title": {"en": "Reference solution: {id}", "zh": "参考答案：{id}"},
        "compare_title": {"en": "Yours and the reference: {id}", "zh": "你的代码与参考答案：{id}"},
        "compare_yours": {"en": "Yours", "zh": "你的代码"},
        "compare_reference": {"en": "Reference", "zh": "参考答案"},
        "compare_legend": {
            "en": "{n} rows differ: | changed, < only yours, > only the reference. Both pass",
            "zh": "{n} 行不同：| 改动  < 只在你的代码里  > 只在参考答案里。两者都通过",
        },
        "compare_offer": {
            "en": "F4: see your code beside the reference, differences marked",
            "zh": "F4：把你的代码和参考答案并排对照，标出不同之处",
        },
        "solution_confirm": {
            "en": "You have not passed this exercise yet. Show the reference solution anyway?",
            "zh": "你还没有通过这个练习。仍然要查看参考答案吗？",
        },
        "solution_missing": {"en": "No reference solution file: {path}", "zh": "没有参考答案文件：{path}"},
        "reset_confirm": {
            "en": "Put the starter code back? Your current file is kept in workspace/.backup/.",
            "zh": "恢复为起始代码吗？当前文件会保存在 workspace/.backup/ 中。",
        },
        "reset_done": {
            "en": "Starter code restored; the old file is kept at {path}",
            "zh": "已恢复起始代码；原文件保存在 {path}",
        },
        "saved": {"en": "Saved {path}", "zh": "已保存 {path}"},
        "save_failed": {"en": "Could not save {path}: {why}", "zh": "无法保存 {path}：{why}"},
        "save_failed_kept": {
            "en": "Not saved: {why}. Your text is still in the editor.",
            "zh": "没有保存：{why}。你的代码仍在编辑器里。",
        },
        "leave_unsaved": {
            "en": "Not saved: {why}. Esc again leaves, keeping a copy of your text (where is said).",
            "zh": "没有保存：{why}。再按 Esc 离开，你的代码会另存一份（会告诉你存在哪里）。",
        },
        "unsaved_rescued": {
            "en": "Could not save {path} ({why}); your text was kept in {rescue}",
            "zh": "无法保存 {path}（{why}）；你的代码另存在 {rescue}",
        },
        "unsaved_lost": {
            "en": "Could not save {path} ({why}), nor keep a copy of it ({why_copy}).",
            "zh": "无法保存 {path}（{why}），也无法另存副本（{why_copy}）。",
        },
        "file_deleted": {
            "en": "{name} was deleted on disk; your text is still here, and Ctrl+S or F5 writes it back.",
            "zh": "磁盘上的 {name} 被删除了；你的代码还在这里，按 Ctrl+S 或 F5 会把它写回。",
        },
        "file_changed": {
            "en": "The file changed on disk: reloaded, checking.",
            "zh": "文件在外部被修改：已重新加载并检查。",
        },
        "file_changed_kept": {
            "en": "The file changed on disk; your unsaved edits are kept (F5 saves them, keeping that version in .backup/).",
            "zh": "文件在外部被修改；你未保存的修改已保留（按 F5 保存它们，外部的版本另存到 .backup/）。",
        },
        "file_changed_checked_elsewhere": {
            "en": "The file was saved in another window, which is checking it: reloaded.",
            "zh": "文件已在另一个窗口中保存，那个窗口正在检查它：已重新加载。",
        },
        "kept_other": {
            "en": "The file had been saved elsewhere since you opened it; that version is kept at {path}",
            "zh": "文件在你打开之后被别处保存过；那个版本另存在 {path}",
        },
        "replaced_kept": {
            "en": "Another window saved over your file; your previous text is kept at {path}",
            "zh": "另一个窗口覆盖保存了你的文件；你之前的代码另存在 {path}",
        },
        "download_cmd": {"en": "Download {name}", "zh": "下载 {name}"},
        "download_help": {
            "en": "your exercise file, to your own machine",
            "zh": "把你的练习文件下载到你自己的电脑",
        },
        "upload_cmd": {"en": "Upload a file in place of {name}", "zh": "上传一个文件替换 {name}"},
        "upload_help": {
            "en": "from your own machine; the old one is kept, the new one is checked",
            "zh": "从你自己的电脑上传；旧文件会保留，新文件会被检查",
        },
        "starting_python": {
            "en": "Starting Python and JAX for this run (none is kept while no code runs): a few seconds…",
            "zh": "正在为这次运行启动 Python 和 JAX（一段时间不运行代码时不保留）：需要几秒钟…",
        },
        "editor_in_browser": {
            "en": "In a browser the file is edited here, in the Code view (F2 goes back to the task); F5 saves and checks it.",
            "zh": "在浏览器里，文件就在这里的代码视图中编辑（F2 回到题目）；F5 保存并检查。",
        },
        "no_editor": {
            "en": "The editor {cmd!r} did not work: {why}. Set $VISUAL or $EDITOR to an editor that waits until you close the file.",
            "zh": "编辑器 {cmd!r} 没能正常运行：{why}。请把 $VISUAL 或 $EDITOR 设为会等你关闭文件才返回的编辑器。",
        },
        "no_next": {
            "en": "Pass this exercise first, then Ctrl+N opens the next one.",
            "zh": "先通过这个练习，再按 Ctrl+N 打开下一个。",
        },
        "chart_title": {"en": "Live chart", "zh": "实时曲线"},
        "chart_waiting": {"en": "waiting for the first points…", "zh": "等待第一批数据点……"},
        "chart_log": {"en": " (log scale)", "zh": "（对数坐标）"},
        "chart_latest": {"en": "latest: {value} (step {step})", "zh": "最新：{value}（第 {step} 步）"},
        "chart_reference": {"en": "reference: {value}", "zh": "参考解：{value}"},
        "trace_title": {"en": "Traces (F10)", "zh": "追踪（F10）"},
        "trace_none": {
            "en": "Check (F5): each jitted function the checks call shows here as it traces: how often, why, with which argument types.",
            "zh": "按 F5 检查：检查调用的每个 jit 函数一旦追踪就会显示在这里：追踪了几次、为什么、参数是什么类型。",
        },
        "trace_none_yet": {
            "en": "No function of yours traced in this run yet.",
            "zh": "本次运行中你的函数还没有被追踪。",
        },
        "trace_count_one": {"en": "traced once", "zh": "追踪了 1 次"},
        "trace_count": {"en": "traced {n} times", "zh": "追踪了 {n} 次"},
        "trace_flow": {"en": "its program holds: {found}", "zh": "程序中含有：{found}"},
        "trace_no_flow": {"en": "no scan / while / cond in its program", "zh": "程序中没有 scan / while / cond"},
        "trace_shown": {
            "en": "Trace panel shown (F10 or Ctrl+F hides it)",
            "zh": "已显示追踪面板（F10 或 Ctrl+F 隐藏）",
        },
        "chart_skipped": {
            "en": "No curve this time: an earlier check failed, so training was skipped.",
            "zh": "这次没有曲线：前面有检查没通过，所以跳过了训练。",
        },
        "chart_not_reached": {
            "en": "No curve: the run ended before training started.",
            "zh": "没有曲线：运行在训练开始之前就结束了。",
        },
        "chart_no_points": {
            "en": "No curve: training stopped before its first point.",
            "zh": "没有曲线：训练在画出第一个点之前就停止了。",
        },
        # quiz
        "question_of": {"en": "Question {i} of {n}", "zh": "第 {i}/{n} 题"},
        "quiz_choose": {"en": "Choose with 1–4 or a–d, then press Enter.", "zh": "用 1–4 或 a–d 选择，然后按 Enter。"},
        "quiz_right": {"en": "Right!", "zh": "答对了！"},
        "quiz_wrong": {"en": "Not quite: the answer is {answer}.", "zh": "不对：正确答案是 {answer}。"},
        "quiz_your": {"en": "Your choice {letter}:", "zh": "你的选择 {letter}："},
        "quiz_answer": {"en": "The answer {letter}:", "zh": "正确答案 {letter}："},
        "quiz_next": {"en": "Enter: next question · e: run the evidence cell", "zh": "Enter：下一题 · e：运行佐证代码"},
        "quiz_next_plain": {"en": "Enter: next question", "zh": "Enter：下一题"},
        # spot the bug (tutor/ui/screens/drill.py)
        "drill_title": {"en": "Spot the bug · {lesson}", "zh": "找错 · 第 {lesson} 节"},
        "drill_review_title": {"en": "Review · spot the bug", "zh": "复习 · 找错"},
        "drill_none": {"en": "This lesson has no drills.", "zh": "本节没有找错练习。"},
        "drill_intro": {
            "en": "This program for “{exercise}” fails one check.",
            "zh": "这段为“{exercise}”写的程序有一项检查不通过。",
        },
        "drill_ask_line": {
            "en": "Which line holds the mistake? ↑↓ and Enter, or type its number.",
            "zh": "错误在哪一行？用 ↑↓ 和 Enter 选择，或直接输入行号。",
        },
        "drill_typed": {"en": "line {n}", "zh": "第 {n} 行"},
        "drill_line_right": {"en": "Line {n}: right.", "zh": "第 {n} 行：对了。"},
        "drill_line_wrong": {
            "en": "You picked line {picked}; the mistake is on line {n} (highlighted).",
            "zh": "你选了第 {picked} 行；错误在第 {n} 行（已高亮）。",
        },
        "drill_ask_belief": {
            "en": "What belief would write it? ↑↓ and Enter.",
            "zh": "写出这一行的人是怎么想的？用 ↑↓ 和 Enter 选择。",
        },
        "drill_belief_right": {"en": "That is the belief behind it.", "zh": "正是这个想法。"},
        "drill_belief_wrong": {"en": "Not that one: the right belief is marked.", "zh": "不是这个：正确的想法已标出。"},
        "drill_review": {"en": "Lesson {lesson} sets it right.", "zh": "第 {lesson} 节讲清了这一点。"},
        "drill_running": {"en": "Running it in a worker…", "zh": "正在 worker 中运行……"},
        "drill_check_failed": {"en": "What the check “{name}” says:", "zh": "检查“{name}”的说法："},
        "drill_run_said": {"en": "The run ended: {why}", "zh": "运行结束：{why}"},
        "drill_item": {"en": "Spot the bug ({n}) · {score}", "zh": "找错（{n} 题）· {score}"},
        "drill_of": {"en": "Drill {i} of {n}", "zh": "第 {i} 题，共 {n} 题"},
        "drill_score": {"en": "This lesson's drills: {score}", "zh": "本节找错：{score}"},
        "drill_next_keys": {"en": "n: next drill · Esc: back", "zh": "n：下一题 · Esc：返回"},
        "drill_end_keys": {"en": "That was the last drill · Esc: back", "zh": "这是最后一题 · Esc：返回"},
        "review_title": {"en": "Review", "zh": "复习"},
        "review_today": {"en": "{n} to review today  [v]", "zh": "今天有 {n} 道题要复习  [v]"},
        "review_done": {"en": "Review: {score} of {n} right", "zh": "复习：答对 {score}/{n} 题"},
        "review_all_right": {
            "en": "Each one right comes back once more, after a longer while, until it has stuck.",
            "zh": "答对的题还会再出现一次，间隔更长，直到记牢为止。",
        },
        "review_wrong_back": {
            "en": "The ones answered wrong come back tomorrow, in a form you have not seen.",
            "zh": "答错的题明天会再出现，换成你没见过的形式。",
        },
        "review_next": {"en": "Next review: {day}", "zh": "下次复习：{day}"},
        "review_end_keys": {
            "en": "c or Esc: back to the outline · o: turn review off",
            "zh": "c 或 Esc：回到目录 · o：关闭复习",
        },
        "review_turned_off": {
            "en": "Review is off. Its schedule is kept: `jaxstate-tutor review --on` brings it back.",
            "zh": "复习已关闭。复习计划会保留：`jaxstate-tutor review --on` 可恢复。",
        },
        "review_none": {"en": "Nothing to review today.", "zh": "今天没有要复习的题。"},
        "quiz_done": {"en": "Quiz finished: {score} of {n} right", "zh": "测验完成：答对 {score}/{n} 题"},
        "quiz_review": {"en": "To review:", "zh": "需要复习："},
        "quiz_all_right": {"en": "Every answer is right.", "zh": "全部答对。"},
        "quiz_retry_hint": {
            "en": "r: retry the wrong ones (options reshuffled, new numbers) · c: go on · Esc: back",
            "zh": "r：重做答错的题（选项重新打乱，换新数字）· c：继续 · Esc：返回",
        },
        "quiz_end_next": {"en": "c: go on · Esc: back", "zh": "c：继续 · Esc：返回"},
        "checkpoint_done": {"en": "Checkpoint {id}: {score} of {n} right", "zh": "第 {id} 节小测：答对 {score}/{n} 题"},
        "checkpoint_not_done": {
            "en": "The checkpoint is done once every answer is right: r asks the wrong ones again, "
            "with new numbers where a question has them.",
            "zh": "每道题都答对，小测才算完成：按 r 重做答错的题，能换数字的题会换一组新数字。",
        },
        "quiz_type_number": {"en": "Type a number, then press Enter.", "zh": "输入一个数，然后按 Enter。"},
        "quiz_your_number": {"en": "Your answer:", "zh": "你的答案："},
        "quiz_computing": {
            "en": "A worker is running this question's code to get the answer…",
            "zh": "正在用工作进程运行本题的代码，求出答案……",
        },
        "quiz_number_right": {"en": "Right! The run printed {shown}.", "zh": "答对了！运行结果是 {shown}。"},
        "quiz_number_wrong": {
            "en": "Not quite: you said {given}, the run printed {shown}.",
            "zh": "不对：你答的是 {given}，运行结果是 {shown}。",
        },
        "quiz_not_computed": {
            "en": "The answer could not be worked out ({why}), so this question is not counted. Enter goes on.",
            "zh": "没能求出答案（{why}），这道题不计分。按 Enter 继续。",
        },
        "review_lesson": {"en": " (lesson {id})", "zh": "（第 {id} 节）"},
        "review_line": {"en": "{head}{where}: {prose}", "zh": "{head}{where}：{prose}"},
        "quiz_empty": {"en": "The quiz has no questions yet.", "zh": "测验还没有题目。"},
        "evidence": {"en": "Evidence", "zh": "佐证代码"},
        # progress
        "progress_title": {"en": "Your progress", "zh": "学习进度"},
        "col_exercise": {"en": "Exercise", "zh": "练习"},
        "col_status": {"en": "Status", "zh": "状态"},
        "col_attempts": {"en": "Tries", "zh": "尝试"},
        "col_hints": {"en": "Hints", "zh": "提示"},
        "col_solution": {"en": "Sol.", "zh": "答案"},
        "col_lesson": {"en": "Section", "zh": "章节"},
        "predictions_score": {
            "en": "Predictions before running a cell: {right} of {n} right",
            "zh": "运行前的预测：{n} 次，猜对 {right} 次",
        },
        "quiz_score": {
            "en": "Quiz: {answered} of {n} answered, {score} · best round {best}/{n} · rounds taken: {attempts}",
            "zh": "测验：已答 {answered}/{n} 题，{score} · 最好的一轮 {best}/{n} · 共 {attempts} 轮",
        },
        "checkpoints_score": {"en": "Checkpoints done: {done} of {n}", "zh": "已完成小测：{done}/{n}"},
        "list_sep": {"en": ", ", "zh": "、"},
        "predictions_not_made": {
            "en": "Questions before a run not answered (their sections stay unfinished): {where}",
            "zh": "没有回答的运行前问题（所在章节保持未完成）：{where}",
        },
        "lesson_count": {"en": "{id} ({n})", "zh": "第 {id} 节（{n} 个）"},
        "reset_progress_confirm": {
            "en": "Reset all progress? The current file is kept as a backup.",
            "zh": "重置全部进度吗？当前进度文件会保留为备份。",
        },
        "progress_reset": {"en": "Progress reset; backup: {path}", "zh": "进度已重置；备份：{path}"},
        "progress_error": {"en": "Progress not saved: {why}", "zh": "进度未保存：{why}"},
        "yes": {"en": "yes", "zh": "是"},
        "no": {"en": "no", "zh": "否"},
        "confirm_keys": {"en": "y / Enter: yes    n / Esc: no", "zh": "y / Enter：是    n / Esc：否"},
        # help
        "help_title": {"en": "Keys", "zh": "按键"},
        "help_body": {
            "en": """\
## Everywhere
- **Ctrl+Q** quit · **F1** this help (**F1** / **q** / **Esc** closes it) · **Ctrl+L** 中文 / English · **Ctrl+P** command palette
- **Esc** back (in the editor, Esc first leaves the editor)
- asked yes or no: **y** / **Enter** yes · **n** / **Esc** no

## The path
- **c** always goes on: from the outline to where you left off; at the end of a lesson, after a
  passed exercise or a finished checkpoint, to the next step (lesson → checkpoint → exercises → …)

## Outline
- **↑ ↓** move · **Enter** open · **c** continue where you left off
- **p** progress · **z** quiz · **d** doctor: run your own script and list its state problems
- **v** today's review (when the outline says some is due) · **b** spot the bug in the highlighted lesson

## Lesson
- **↑ ↓ PgUp PgDn Home End** scroll · **Tab** / **Shift+Tab** next / previous cell · **Enter** / **r** run the cell (or the first on screen)
- **e** copy the focused cell into a scratch editor, change it, **F5** / **Ctrl+R** run it (again: stop it);
  there **F2** / **Ctrl+T** editor ⇄ output · **F8** the lesson's code again
- a cell with a question asks for your prediction before its first run: **a–d** / **1–4**, or a
  number and **Enter**; **Esc** skips and runs it anyway. The section goes on below such a cell
  once you have answered (or skipped) its question: **End** stops there until then
- **c** continue · **n** / **→** next section · **b** / **←** previous section · **x** this section's practice

## Exercise
- **F5** / **Ctrl+R** check (saves first; during a check, starts over on the current text) · **F7** cancel
- In the editor: **Enter** keeps the indentation (one more after `:`), **Tab** / **Shift+Tab** indent /
  dedent the line or selection, **Backspace** at an indent removes one level, **Ctrl+A** select all
- **F2** / **Ctrl+T** code ⇄ what you were reading · **F6** task ⇄ results · **Ctrl+S** save
- **F3** / **Ctrl+G** next hint · **F4** reference solution (after a pass: your code beside it, the
  differences marked; **F4** / **q** / **Esc** closes it) · **F8** reset to the starter
- **F10** / **Ctrl+F** trace panel: how often each jitted function traced in the last run, and why
  (shown by itself from 120 columns)
- **F9** / **Ctrl+O** open the file in `$EDITOR` (in a browser: the Code view) · **c** (outside the editor) / **Ctrl+N** next step (after a pass)
- The file is watched: saving it from another editor re-runs the checks.

## Quiz
- **1–4** / **a–d** choose · **Enter** answer, then next · **e** run the evidence cell
- at the end: **r** retry the wrong ones (their options come back in a new order) · **c** go on
- at the end of today's review: **o** turns the review off (`jaxstate-tutor review --on` turns it back on)

## Spot the bug (b on the outline)
- the line with the mistake: **↑ ↓** and **Enter**, or type its number (**Backspace** takes a digit back)
- then the belief behind it: **↑ ↓** and **Enter**; the program runs, and its failing check speaks
- **n** next drill

## Progress
- **r** reset all progress (asks first)

## Doctor (d on the outline)
- type your script's path and its arguments, **Enter** runs it (its output streams below)
- **Esc** stops a running script (what was seen so far is still reported), else goes back
- **↑ ↓** findings · **Enter** opens the lesson that teaches the fix, at its demo cell
""",
            "zh": """\
## 任何地方
- **Ctrl+Q** 退出 · **F1** 本帮助（**F1** / **q** / **Esc** 关闭）· **Ctrl+L** 切换 English / 中文 · **Ctrl+P** 命令面板
- **Esc** 返回（在编辑器里，第一次 Esc 先离开编辑器）
- 询问是否时：**y** / **Enter** 是 · **n** / **Esc** 否

## 学习路线
- **c** 总是往前走：在目录里回到上次的位置；在一节课末尾、练习通过后或小测结束后，进入下一步
  （课程 → 小测 → 练习 → ……）

## 目录
- **↑ ↓** 移动 · **Enter** 打开 · **c** 从上次的位置继续
- **p** 学习进度 · **z** 测验 · **d** 诊断：运行你自己的脚本，列出其中的状态问题
- **v** 今日复习（目录显示有待复习时）· **b** 为选中的一节做找错练习

## 章节
- **↑ ↓ PgUp PgDn Home End** 滚动 · **Tab** / **Shift+Tab** 下一个 / 上一个代码单元 · **Enter** / **r** 运行单元（或屏幕上的第一个）
- **e** 把当前单元复制到草稿编辑器里修改，**F5** / **Ctrl+R** 运行（再按：停止）；
  在那里 **F2** / **Ctrl+T** 编辑器 ⇄ 输出 · **F8** 恢复课程里的代码
- 带问题的单元在第一次运行前先请你预测：按 **a–d** / **1–4**，或输入一个数再按 **Enter**；
  **Esc** 跳过，直接运行。回答（或跳过）了这个问题，本节才会在它下面继续，在此之前 **End**
  也只到这里
- **c** 继续 · **n** / **→** 下一节 · **b** / **←** 上一节 · **x** 本节练习

## 练习
- **F5** / **Ctrl+R** 检查（先保存；检查进行中再按，则用当前代码重新开始）· **F7** 取消
- 编辑器里：**Enter** 保持缩进（`:` 之后多缩进一级），**Tab** / **Shift+Tab** 缩进 / 反缩进当前行或选中的行，
  在缩进处按 **Backspace** 删除一级，**Ctrl+A** 全选
- **F2** / **Ctrl+T** 在代码与刚才阅读的页面之间切换 · **F6** 题目 ⇄ 结果 · **Ctrl+S** 保存
- **F3** / **Ctrl+G** 下一条提示 · **F4** 参考答案（通过之后：与你的代码并排，标出差异；
  **F4** / **q** / **Esc** 关闭）· **F8** 恢复起始代码
- **F10** / **Ctrl+F** 追踪面板：上次运行中每个 jit 函数追踪了几次、为什么（120 列以上自动显示）
- **F9** / **Ctrl+O** 用 `$EDITOR` 打开文件（在浏览器里：代码视图）· **c**（不在编辑器里时）/ **Ctrl+N** 下一步（通过之后）
- 文件会被监视：在其他编辑器里保存，检查会自动重新运行。

## 测验
- **1–4** / **a–d** 选择 · **Enter** 作答，再按进入下一题 · **e** 运行佐证代码
- 结束时：**r** 重做答错的题（选项会重新打乱）· **c** 继续
- 今日复习结束时：**o** 关闭复习（`jaxstate-tutor review --on` 可重新打开）

## 找错（在目录按 b）
- 错误所在的行：**↑ ↓** 和 **Enter**，或输入行号（**Backspace** 删掉一位）
- 然后选出背后的想法：**↑ ↓** 和 **Enter**；程序随后运行，显示未通过的检查怎么说
- **n** 下一题

## 学习进度
- **r** 重置全部进度（会先确认）

## 诊断（在目录按 d）
- 输入脚本路径和参数，**Enter** 运行（输出会实时显示在下方）
- **Esc** 停止正在运行的脚本（此前看到的问题仍会列出），否则返回
- **↑ ↓** 选择问题 · **Enter** 打开讲解修法的那一课，并定位到演示单元
""",
        },
    }
)

# Footer labels, by action name; the same action has the same label on every screen.
KEY_LABELS = table(
    {
        "help": {"en": "Help", "zh": "帮助"},
        "toggle_lang": {"en": "中文", "zh": "English"},
        "back": {"en": "Back", "zh": "返回"},
        "open": {"en": "Open", "zh": "打开"},
        "continue": {"en": "Continue", "zh": "继续"},
        "progress": {"en": "Progress", "zh": "进度"},
        "quiz": {"en": "Quiz", "zh": "测验"},
        "doctor": {"en": "Doctor", "zh": "诊断"},
        "review": {"en": "Review", "zh": "复习"},
        "review_off": {"en": "Review off", "zh": "关闭复习"},
        "drills": {"en": "Spot bug", "zh": "找错"},
        "next_drill": {"en": "Next", "zh": "下一题"},
        "app.quit": {"en": "Quit", "zh": "退出"},
        "command_palette": {"en": "Search", "zh": "搜索"},
        "palette_search": {
            "en": "Search lessons, exercises and commands…",
            "zh": "搜索章节、练习和命令……",
        },  # Textual's own Ctrl+P, at the footer's right
        "run_cell": {"en": "Run", "zh": "运行"},
        "scratch": {"en": "Edit", "zh": "编辑"},
        "next_cell": {"en": "Cell", "zh": "单元"},
        "next_lesson": {"en": "Next", "zh": "下一节"},
        "prev_lesson": {"en": "Prev", "zh": "上一节"},
        "exercises": {"en": "Practice", "zh": "练习"},
        "check": {"en": "Check", "zh": "检查"},
        "cancel": {"en": "Cancel", "zh": "取消"},
        "cancel_check": {"en": "Cancel", "zh": "取消"},
        "go_on": {"en": "Continue", "zh": "继续"},
        "view": {"en": "View", "zh": "切换"},
        "hint": {"en": "Hint", "zh": "提示"},
        "solution": {"en": "Answer", "zh": "答案"},
        "reset": {"en": "Reset", "zh": "重置"},
        "editor": {"en": "Editor", "zh": "编辑器"},
        "next_exercise": {"en": "Next", "zh": "下一题"},
        "save": {"en": "Save", "zh": "保存"},
        "answer": {"en": "Answer", "zh": "作答"},
        "next_question": {"en": "Next", "zh": "下一题"},
        "evidence": {"en": "Evidence", "zh": "佐证"},
        "retry": {"en": "Retry", "zh": "重做"},
        "reset_progress": {"en": "Reset", "zh": "重置"},
        "yes": {"en": "Yes", "zh": "是"},
        "no": {"en": "No", "zh": "否"},
    }
)


def spaced(label: str) -> str:
    """A label and the space before what follows; a full-width colon (zh) already has it."""
    return label if label.endswith("：") else label + " "


def bold_label(label: str, text: str) -> str:
    """Markdown: the label in bold, then `text`. A closing `**` right after punctuation and before
    a letter does not close (CommonMark's flanking rule), so "**你的选择 A：**中文" showed its
    asterisks: the colon goes after the bold, with no space after a full-width one (zh)."""
    colon = label[-1] if label.endswith(("：", ":")) else ""
    return f"**{label[: len(label) - len(colon)]}**{colon}" + ("" if colon == "：" else " ") + text


say = UI.say
