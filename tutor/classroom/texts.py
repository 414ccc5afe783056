"""Every sentence `export` and `grade` print or write into the table, in both languages."""

from __future__ import annotations

from tutor.i18n import table

MSG = table(
    {
        # export
        "exported": {
            "en": "Wrote {path}: your progress and {n} exercise files ({passed} as they passed). "
            "Hand this one file to your instructor.",
            "zh": "已写入 {path}：你的进度和 {n} 个练习文件（其中 {passed} 个是通过时的原样）。把这一个文件交给老师即可。",
        },
        "export_latest": {
            "en": "note: {id}: progress says passed, but no copy of the passing file was kept (it passed "
            "before this tutor kept them); your current file is in the export instead. Check it again "
            "to keep the passing one.",
            "zh": "注意：{id}：进度显示已通过，但没有保存通过时的文件（通过时的 tutor 还不保存它）；导出的是你现在的文件。"
            "再检查一次即可保存通过的文件。",
        },
        "export_hub_name": {
            "en": "note: under JupyterHub the export is in your account's name, {name}; --name {given!r} is not used",
            "zh": "注意：在 JupyterHub 上，导出文件使用你的账户名 {name}；不使用 --name {given!r}",
        },
        "export_unreadable": {"en": "note: {id}: left out: {why}", "zh": "注意：{id}：未导出：{why}"},
        "export_cannot_write": {
            "en": "export: cannot write {path}: {why}",
            "zh": "export：无法写入 {path}：{why}",
        },
        # grade: usage
        "grade_no_dir": {
            "en": "grade: {path} does not exist; give the folders that hold the learners' exports",
            "zh": "grade：{path} 不存在；请给出存放学生导出文件的文件夹",
        },
        "grade_nothing_given": {
            "en": "grade: give the folders of exports (DIR...), or the exchange (--exchange DIR or "
            "JAXSTATE_TUTOR_EXCHANGE)",
            "zh": "grade：请给出存放导出文件的文件夹（DIR...），或提交文件夹（--exchange DIR 或 JAXSTATE_TUTOR_EXCHANGE）",
        },
        "grade_cannot_list": {
            "en": "grade: cannot read the folder {path}: {why}",
            "zh": "grade：无法读取文件夹 {path}：{why}",
        },
        "grade_cannot_write": {
            "en": "grade: cannot write {path}: {why}; the table was not written there",
            "zh": "grade：无法写入 {path}：{why}；表格没有写到那里",
        },
        "grade_progress": {"en": "grade: {learner} {id}: {status}", "zh": "grade：{learner} {id}：{status}"},
        "grade_problem": {"en": "grade: {path}: {why}", "zh": "grade：{path}：{why}"},
        "grade_done": {
            "en": "Graded {files} files of {learners} learners ({problems} exports not read); "
            "{flagged} claimed passes not confirmed by the re-run; {scores_unsupported} exports claim first-try "
            "scores their answers do not give; {course_version} made on another version of the course or not "
            "saying which; {other_course} of another course, refused.",
            "zh": "已评分 {learners} 名学生的 {files} 个文件（{problems} 个导出文件无法读取）；"
            "{flagged} 个自称的通过没有被重新运行证实；{scores_unsupported} 个导出文件自称的首次得分与其答案不符；"
            "{course_version} 个来自另一版本的课程或没有写明课程；{other_course} 个属于另一门课程，已拒绝。",
        },
        "grade_wrote": {"en": "Wrote {path}", "zh": "已写入 {path}"},
        "grade_nothing": {
            "en": "grade: no export found in {dirs}; the table is empty",
            "zh": "grade：在 {dirs} 中没有找到导出文件；表格为空",
        },
        # outputs never replace what is not theirs (issue 50)
        "out_not_a_file": {
            "en": "{command}: {path} is a {what}, not a file; it writes only a new file or over a regular one. "
            "Give another path",
            "zh": "{command}：{path} 是{what}，不是普通文件；它只写入新文件或覆盖普通文件。请换一个路径",
        },
        "kind_folder": {"en": "folder", "zh": "文件夹"},
        "kind_link": {"en": "link", "zh": "链接"},
        "kind_device": {"en": "device", "zh": "设备"},
        "kind_pipe": {"en": "pipe", "zh": "管道"},
        "kind_socket": {"en": "socket", "zh": "套接字"},
        "kind_special file": {"en": "special file", "zh": "特殊文件"},
        "out_in_collected": {
            "en": "grade: {path} is inside {dir}, a folder being graded: the table would land among the "
            "learners' exports (and could replace one). Write it outside the collected folder",
            "zh": "grade：{path} 位于正在评分的文件夹 {dir} 中：表格会混进学生的导出文件（还可能覆盖其中一个）。"
            "请写到收集文件夹之外",
        },
        "out_is_export": {
            "en": "grade: {path} is a learner's export; the table is never written over one. Give another path",
            "zh": "grade：{path} 是学生的导出文件；表格绝不会覆盖它。请换一个路径",
        },
        "out_twice": {
            "en": "grade: {paths}: one file given for two tables; the last written would replace the others. "
            "Give each its own path",
            "zh": "grade：{paths}：两个表格用了同一个文件；后写的会覆盖先写的。请给每个表格单独的路径",
        },
        "export_over_home": {
            "en": "export: {path} is a file in the tutor's home ({home}): the export never replaces the tutor's "
            "progress or your code. Give a path outside the home",
            "zh": "export：{path} 是本教程主目录（{home}）中的文件：导出文件绝不会覆盖本教程的进度或你的代码。"
            "请给一个主目录之外的路径",
        },
        "export_over_other": {
            "en": "export: {path} is {learner}'s export; yours never replaces another learner's. Give another path",
            "zh": "export：{path} 是 {learner} 的导出文件；你的导出绝不会覆盖别的学生的。请换一个路径",
        },
        # grade: what walls each run in (--isolation)
        "isolation_missing": {
            "en": "grade: --isolation bwrap: bubblewrap (`bwrap`) is not installed here (not on PATH). Install it "
            "(apt install bubblewrap, dnf install bubblewrap) or grade with --isolation fence",
            "zh": "grade：--isolation bwrap：本机没有安装 bubblewrap（`bwrap`，PATH 中找不到）。请安装它"
            "（apt install bubblewrap、dnf install bubblewrap），或者用 --isolation fence 评分",
        },
        "isolation_userns": {
            "en": "grade: --isolation bwrap: bwrap cannot make its namespaces: user namespaces are off for this "
            "user ({detail}). Turn them on, or grade with --isolation fence",
            "zh": "grade：--isolation bwrap：bwrap 无法创建命名空间：本用户的用户命名空间已关闭（{detail}）。"
            "请打开它，或者用 --isolation fence 评分",
        },
        "isolation_fails": {
            "en": "grade: --isolation bwrap: bwrap is installed but does not run here ({detail}); a container "
            "without the right to make namespaces, or gVisor, refuses it. Grade with --isolation fence",
            "zh": "grade：--isolation bwrap：bwrap 已安装，但在这里无法运行（{detail}）；没有创建命名空间权限的容器"
            "或 gVisor 会拒绝它。请用 --isolation fence 评分",
        },
        "isolation_missing_short": {"en": "bwrap is not installed", "zh": "没有安装 bwrap"},
        "isolation_userns_short": {"en": "user namespaces are off ({detail})", "zh": "用户命名空间已关闭（{detail}）"},
        "isolation_fails_short": {"en": "bwrap does not run here ({detail})", "zh": "bwrap 在这里无法运行（{detail}）"},
        "isolation_fallback": {
            "en": "grade: note: {why}: each file runs under the tutor's in-worker fence alone (it may read only its "
            "run folder, the course's lessons/ and Python, write only its run folder and open no socket, but it shares "
            "this machine's process and IPC namespaces, which bwrap would not); the table's isolation column says `fence`",
            "zh": "grade：注意：{why}：每个文件只在本教程的进程内防护下运行（只能读取自己的运行文件夹、课程的 lessons/ 和 Python，"
            "只能写自己的运行文件夹，不能打开套接字，但与这台机器共用进程和 IPC 命名空间，bwrap 则不会）；"
            "表格的 isolation 列写的是 `fence`",
        },
        # grade: what a whole export can be (the note of its row)
        "not_json": {
            "en": "not an export: not valid JSON ({why}); a corrupt or truncated file, or not made by `jaxstate-tutor export`",
            "zh": "不是导出文件：不是有效的 JSON（{why}）；文件损坏或不完整，或者不是 `jaxstate-tutor export` 生成的",
        },
        "not_export": {
            "en": "not an export: {why}; make one with `jaxstate-tutor export`",
            "zh": "不是导出文件：{why}；请用 `jaxstate-tutor export` 生成",
        },
        "too_large": {
            "en": "not read: {size} bytes, more than the {most} bytes an export can hold",
            "zh": "未读取：{size} 字节，超过导出文件的上限 {most} 字节",
        },
        "unreadable": {"en": "not read: {why}", "zh": "未读取：{why}"},
        "newer_format": {
            "en": "made by a newer tutor (export format {version}; this one reads {known}); upgrade the tutor",
            "zh": "由更新版本的 tutor 生成（导出格式 {version}；本版本只认识 {known}）；请升级 tutor",
        },
        # grade: one exercise's note
        "unknown_exercise": {
            "en": "unknown exercise id '{id}': not in this course (is it the course the learner used? --course DIR)",
            "zh": "未知的练习 id '{id}'：不在本课程中（学生用的是这门课吗？--course DIR）",
        },
        "file_too_large": {
            "en": "not run: the file is {size} bytes; a solution file must be under {most}",
            "zh": "未运行：文件有 {size} 字节；答案文件必须小于 {most} 字节",
        },
        "file_not_text": {"en": "not run: {why}", "zh": "未运行：{why}"},
        "no_file": {
            "en": "no file in the export for this exercise",
            "zh": "导出文件中没有这道练习的文件",
        },
        "not_attempted": {"en": "not handed in", "zh": "未提交"},
        # grade: the gradebook's words (tutor.classroom.gradebook, roster)
        "no_export": {"en": "no export from this learner", "zh": "这名学生没有提交导出文件"},
        "exports_of_one_note": {
            "en": "one learner, several exports ({files}): neither is kept until one is removed",
            "zh": "同一名学生有多个导出文件（{files}）：删掉其中一个之前，两者都不计入",
        },
        "identical": {"en": "identical, byte for byte", "zh": "逐字节相同"},
        "identical_short": {
            "en": "identical, byte for byte (a short file: may be independent)",
            "zh": "逐字节相同（文件很短：也可能是各自写的）",
        },
        "near_identical": {
            "en": "near-identical (similarity {similarity})",
            "zh": "几乎相同（相似度 {similarity}）",
        },
        "is_reference": {"en": "the reference solution, byte for byte", "zh": "与参考答案逐字节相同"},
        "near_reference": {
            "en": "near the reference solution (similarity {similarity})",
            "zh": "与参考答案几乎相同（相似度 {similarity}）",
        },
        "late_export": {"en": "exported {after} after the due time", "zh": "在截止时间后 {after} 导出"},
        "late_submit": {"en": "submitted {after} after the due time", "zh": "在截止时间后 {after} 提交"},
        "late_pass": {"en": "first passed {after} after the due time", "zh": "在截止时间后 {after} 首次通过"},
        "grade_bad_due": {
            "en": "grade: --due {value!r} is not a time; write it as ISO-8601, such as 2026-12-06T18:00:00Z "
            "(without an offset it is UTC)",
            "zh": "grade：--due {value!r} 不是时间；请写成 ISO-8601，例如 2026-12-06T18:00:00Z（不带时区即为 UTC）",
        },
        "roster_unreadable": {
            "en": "grade: cannot read the roster {path}: {why}",
            "zh": "grade：无法读取名单 {path}：{why}",
        },
        "roster_no_name": {
            "en": "grade: the roster {path} has no 'name' column in its first row ({header!r}); its first row "
            "names the columns: name, and optionally id, email, section",
            "zh": "grade：名单 {path} 的第一行没有 'name' 列（{header!r}）；第一行是列名：name，可选 id、email、section",
        },
        "roster_row_no_name": {
            "en": "grade: the roster {path}, line {line}: a learner without a name",
            "zh": "grade：名单 {path} 第 {line} 行：学生没有姓名",
        },
        "roster_twice": {
            "en": "grade: the roster {path}, line {line}: '{who}' is already on line {first}; one learner, one line",
            "zh": "grade：名单 {path} 第 {line} 行：'{who}' 已经在第 {first} 行；每名学生一行",
        },
        "grade_roster_done": {
            "en": "Roster: {missing_learners} learners handed in nothing, {not_on_roster} exports are of no one "
            "on the roster, {duplicates} learners handed in more than one export.",
            "zh": "名单：{missing_learners} 名学生没有提交，{not_on_roster} 个导出文件不属于名单上的任何人，"
            "{duplicates} 名学生提交了不止一个导出文件。",
        },
        "grade_honesty_done": {
            "en": "To look at: {copies} hand-ins that share their work with another's, {reference} that are the "
            "reference solution or near it, {viewed} exercises whose solution was viewed, {late} rows late.",
            "zh": "需要查看：{copies} 份与他人雷同的提交，{reference} 份是参考答案或与之几乎相同，"
            "{viewed} 道练习看过答案，{late} 行迟交。",
        },
        "hash_differs": {
            "en": "the file's sha256 differs from the one recorded at export (edited after export)",
            "zh": "文件的 sha256 与导出时记录的不同（导出后被改过）",
        },
        "was_latest": {
            "en": "the learner's latest file (no passing copy was kept)",
            "zh": "学生最新的文件（没有保存通过时的副本）",
        },
        "run_failed": {"en": "could not be run: {why}", "zh": "无法运行：{why}"},
        # the exchange: submit, exchange init, grade --exchange
        "submitted": {
            "en": "Handed in as {account}: {path} ({n} exercise files, {passed} as they passed). Only you and "
            "your instructor can read it; submit again to replace it.",
            "zh": "已以 {account} 的身份提交：{path}（{n} 个练习文件，其中 {passed} 个是通过时的原样）。只有你和老师能读它；"
            "再提交一次即可替换。",
        },
        "submit_no_exchange": {
            "en": "submit: no exchange folder: give --exchange DIR or set JAXSTATE_TUTOR_EXCHANGE (your instructor "
            "says which); or hand in a file with `jaxstate-tutor export`",
            "zh": "submit：没有提交文件夹：请用 --exchange DIR 或设置 JAXSTATE_TUTOR_EXCHANGE（由老师告诉你）；"
            "或者用 `jaxstate-tutor export` 交一个文件",
        },
        "exchange_missing": {
            "en": "{path} does not exist; the instructor makes it once with `jaxstate-tutor exchange init {path}`",
            "zh": "{path} 不存在；老师需要先运行一次 `jaxstate-tutor exchange init {path}` 创建它",
        },
        "exchange_not_dir": {"en": "{path} is not a folder", "zh": "{path} 不是文件夹"},
        "exchange_open": {
            "en": "{path} is not private (mode {mode}: other accounts could list it, or delete what you hand in); "
            "nothing was written. The instructor fixes it with `jaxstate-tutor exchange init {path}`",
            "zh": "{path} 不是私密的（权限 {mode}：其他账户能列出其中的文件，或删除你提交的文件）；什么也没有写入。"
            "老师可以用 `jaxstate-tutor exchange init {path}` 修正",
        },
        "exchange_cannot": {"en": "cannot use {path}: {why}", "zh": "无法使用 {path}：{why}"},
        "exchange_not_posix": {
            "en": "an exchange needs Unix accounts and permissions (Linux, macOS); here, collect files from "
            "`jaxstate-tutor export` instead",
            "zh": "提交文件夹需要 Unix 账户和权限（Linux、macOS）；在这里请改为收集 `jaxstate-tutor export` 生成的文件",
        },
        "exchange_no_group": {"en": "there is no group named '{group}'", "zh": "没有名为 '{group}' 的用户组"},
        "exchange_group_shared": {
            "en": "the group '{group}' has other members ({who}): they could read every submission. Give a group of "
            "instructors only: --group NAME",
            "zh": "用户组 '{group}' 还有其他成员（{who}）：他们能读到所有提交。请指定只有老师的用户组：--group NAME",
        },
        "exchange_made": {
            "en": "{path} is an exchange (mode {mode}, group {group}): learners hand in with "
            "`jaxstate-tutor submit --exchange {path}` (or JAXSTATE_TUTOR_EXCHANGE={path}); they cannot list it "
            "nor read each other's files. Collect with `jaxstate-tutor grade --exchange {path}`.",
            "zh": "{path} 已是提交文件夹（权限 {mode}，用户组 {group}）：学生用 `jaxstate-tutor submit --exchange {path}`"
            "（或 JAXSTATE_TUTOR_EXCHANGE={path}）提交；他们不能列出其中的文件，也不能读彼此的文件。"
            "用 `jaxstate-tutor grade --exchange {path}` 收取。",
        },
        "exchange_refused": {"en": "not taken: {why}", "zh": "未收取：{why}"},
        "grade_link_not_followed": {
            "en": "not read: a symbolic link to {target}, not a file handed in (not followed: a link can name any "
            "file you can read, or another learner's export); put the file itself in the folder",
            "zh": "未读取：这是指向 {target} 的符号链接，不是交上来的文件（不跟随：链接可以指向你能读的任何文件，"
            "或另一个学生的导出文件）；请把文件本身放进文件夹",
        },
        "exchange_earlier": {
            "en": "grade: {account}: {n} earlier submissions replaced by the latest, {path}",
            "zh": "grade：{account}：{n} 份较早的提交已被最新的一份 {path} 取代",
        },
        "exchange_handed_in": {
            "en": "handed in by the account {account} at {when}",
            "zh": "由账户 {account} 于 {when} 提交",
        },
        "exchange_named_other": {
            "en": "the export calls its learner '{named}', but the account {account} handed it in",
            "zh": "导出文件中的学生名为 '{named}'，但提交它的是账户 {account}",
        },
        "forged_or_stale": {"en": "forged or stale", "zh": "伪造或过期"},
        # grade: first tries scored again, and the course an export is of
        "part_quiz": {"en": "quiz", "zh": "测验"},
        "part_checkpoint": {"en": "checkpoint {lesson}", "zh": "第 {lesson} 节小测"},
        "score_unsupported": {
            "en": "{part}: first try claimed {claimed}, but the answers give {right}",
            "zh": "{part}：自称首次 {claimed}，但答案只得出 {right}",
        },
        "score_unjudged": {
            "en": "{part}: first try claimed {claimed}, but the export has no first answer the course can judge "
            "for {ids}",
            "zh": "{part}：自称首次 {claimed}，但导出文件中 {ids} 没有可按课程判定的首次答案",
        },
        "score_lost": {
            "en": " ({ids}: answered more than once before the tutor kept answers, so the first is not known)",
            "zh": "（{ids}：在 tutor 开始保存答案之前已答过不止一次，首次答案无从知道）",
        },
        "no_answers": {
            "en": "the export holds no answers (made by an older tutor): its first-try scores cannot be checked",
            "zh": "导出文件不含答案（由较旧的 tutor 生成）：无法核对它的首次得分",
        },
        "course_other": {
            "en": "not graded: an export of the course '{id}' ({title}, version {hash}), not of this one "
            "('{ours}', {our_title}); grade it with --course DIR of that course",
            "zh": "未评分：这是课程 '{id}'（{title}，版本 {hash}）的导出文件，不是本课程（'{ours}'，{our_title}）的；"
            "请用 --course DIR 指向那门课程来评分",
        },
        "course_version": {
            "en": "made on another version of the course '{id}' (version {hash}; this one is {our_hash}): "
            "graded on this one, whose checks and questions may differ",
            "zh": "来自课程 '{id}' 的另一版本（版本 {hash}；本版本是 {our_hash}）：按本版本评分，检查和题目可能不同",
        },
        "course_unsaid": {
            "en": "the export does not say which course it is of (made by an older tutor); graded as '{id}'",
            "zh": "导出文件没有写明属于哪门课程（由较旧的 tutor 生成）；按 '{id}' 评分",
        },
    }
)

say = MSG.say
