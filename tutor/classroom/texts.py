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
            "{flagged} claimed passes not confirmed by the re-run.",
            "zh": "已评分 {learners} 名学生的 {files} 个文件（{problems} 个导出文件无法读取）；"
            "{flagged} 个自称的通过没有被重新运行证实。",
        },
        "grade_wrote": {"en": "Wrote {path}", "zh": "已写入 {path}"},
        "grade_nothing": {
            "en": "grade: no export found in {dirs}; the table is empty",
            "zh": "grade：在 {dirs} 中没有找到导出文件；表格为空",
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
        "hash_differs": {
            "en": "the file's sha256 differs from the one recorded at export (edited after export)",
            "zh": "文件的 sha256 与导出时记录的不同（导出后被改过）",
        },
        "was_latest": {
            "en": "the learner's latest file (no passing copy was kept)",
            "zh": "学生最新的文件（没有保存通过时的副本）",
        },
        "run_failed": {"en": "could not be run: {why}", "zh": "无法运行：{why}"},
        "forged_or_stale": {"en": "forged or stale", "zh": "伪造或过期"},
    }
)

say = MSG.say
