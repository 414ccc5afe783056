"""The note on a program that changed the copy it ran from (tutor/sandbox/run_copy.py): said when
the copy was deleted or rewritten, never when the whole run folder went with the run."""

from __future__ import annotations

import shutil

from tutor.sandbox import run_copy


def test_a_deleted_or_rewritten_copy_is_noted_and_a_folder_gone_is_not(tmp_path):
    copy = run_copy.place(str(tmp_path / "run"), "x = 1\n", "/home/me/counter-jit.py")
    assert run_copy.what_changed(copy, "x = 1\n") is None
    with open(copy, "w") as f:
        f.write("x = 2\n")
    assert "rewrote its own file" in run_copy.what_changed(copy, "x = 1\n").en
    (tmp_path / "run" / "src" / "counter-jit.py").unlink()
    assert "deleted its own file" in run_copy.what_changed(copy, "x = 1\n").en
    shutil.rmtree(tmp_path / "run")  # as a worker whose reaper was killed removes its run folder
    assert run_copy.what_changed(copy, "x = 1\n") is None
