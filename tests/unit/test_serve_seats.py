"""Who a served tutor lets in (tutor.serve.seats): one token per seat, one home per seat."""

from __future__ import annotations

import stat

from tutor.serve.seats import OLD_TOKEN_FILE, seat_for, seats, token_path, valid_name
from tutor.settings import SERVE_TOKEN_VAR as TOKEN_VAR
from tutor.settings import resolve


def test_one_learner_gets_a_fresh_token_on_their_home(tmp_path, monkeypatch):
    monkeypatch.delenv(TOKEN_VAR, raising=False)
    (first,) = seats(tmp_path, [])
    (again,) = seats(tmp_path, [])
    assert first.home == tmp_path and first.name == ""
    assert len(first.token) >= 32 and first.token != again.token  # a new one each start


def test_a_given_token_is_used(tmp_path, monkeypatch):
    monkeypatch.setenv(TOKEN_VAR, "given-by-jupyter-server-proxy")
    (seat,) = seats(tmp_path, [], resolve(None).serve_token)
    assert seat.token == "given-by-jupyter-server-proxy"


def test_learners_each_get_a_home_and_a_token_that_survives_a_restart(tmp_path):
    ann, bob = seats(tmp_path, ["ann", "bob", "ann"])
    assert (ann.home, bob.home) == (tmp_path / "learners" / "ann", tmp_path / "learners" / "bob")
    assert ann.token != bob.token
    token_file = token_path(tmp_path, "ann")
    assert token_file.read_text().strip() == ann.token
    assert stat.S_IMODE(token_file.stat().st_mode) == 0o600  # other users of the machine cannot read it
    assert stat.S_IMODE(token_file.parent.stat().st_mode) == 0o700
    assert [s.token for s in seats(tmp_path, ["ann", "bob"])] == [ann.token, bob.token]


def test_no_token_is_kept_in_any_learners_home(tmp_path):
    """A check runs in a seat's home: a token there was in reach of every learner's code (issue 50)."""
    ann, bob = seats(tmp_path, ["ann", "bob"])
    for seat in (ann, bob):
        inside = [p.read_text() for p in seat.home.rglob("*") if p.is_file()]
        assert not any(s.token in text for s in (ann, bob) for text in inside)
        assert not token_path(tmp_path, seat.name).is_relative_to(seat.home)


def test_a_token_kept_in_the_learners_home_before_is_moved_out(tmp_path):
    """A class served by an older tutor keeps its addresses; the old file leaves the learner's home."""
    old = tmp_path / "learners" / "ann" / OLD_TOKEN_FILE
    old.parent.mkdir(parents=True)
    old.write_text("an-older-token-of-ann-0123456789\n")
    old.chmod(0o644)
    (ann,) = seats(tmp_path, ["ann"])
    assert ann.token == "an-older-token-of-ann-0123456789"
    assert not old.exists()
    assert token_path(tmp_path, "ann").read_text().strip() == ann.token


def test_a_token_opens_its_own_seat_only(tmp_path):
    ann, bob = seats(tmp_path, ["ann", "bob"])
    assert seat_for([ann, bob], bob.token) == bob
    for wrong in (None, "", bob.token[:-1], bob.token + "x", ann.token.upper()):
        assert seat_for([ann, bob], wrong) in (None, ann) and seat_for([bob], wrong) is None


def test_learner_names_are_folder_names():
    assert all(valid_name(n) for n in ("ann", "a.b", "s-01", "x_y", "7"))
    assert not any(valid_name(n) for n in ("", "..", ".hidden", "Ann", "a/b", "a b", "-x", "x" * 65))
