"""The key-reuse detector's judgement, after the script ran (the part of KeyReuse that reads what
it recorded): every recorded call's keys read in batches, then grouped by root into findings
(reused, loop-constant, same-seed, remade, handed-back) and notes (constant on purpose)."""

from __future__ import annotations

import dataclasses
from collections import Counter, defaultdict

import jax
import numpy as np

from tutor.child.doctor.key_values import (
    READ_BATCH,
    Frames,
    Recipe,
    Site,
    Use,
    _bits,
    _by_leaf,
    _data,
    _evaluate,
    _leaves_of,
    _one_computation,
    _repeated_rows,
    _rows,
)
from tutor.child.doctor.owners import where_inside
from tutor.child.doctor.script_code import ScriptCode
from tutor.protocol import Finding, FindingCode


class Judging:
    """After the run: KeyReuse's findings from what it recorded."""

    # What the detector (KeyReuse) saw while the script ran, read here (set in its __init__).
    code: ScriptCode
    uses: list[Use]
    made: Counter
    made_at: dict[bytes, list[Site]]
    made_seq: dict[bytes, list[tuple[int, Site]]]
    parent: dict[bytes, bytes]
    folded_at: dict[bytes, list[Site]]
    static: list[Finding]
    notes: list[Finding]
    hands_back: dict[Site, Site]
    handing_loops: set[Site]
    _calls: dict[tuple, list[tuple[int, object]]]
    _batches: list[tuple[object, int, Site, Site | None]]
    _batch_found: set[Site]
    entries: dict[int, tuple]  # a use's seq -> (its call into a library, the library's frames)

    def _finding(self, site: Site, first: Site, code: FindingCode = "reused") -> Finding:
        file, fn, line = site
        return Finding("key-reuse", code, self.code.shown(file), line, function=fn, first_line=first[2])

    def _resolve(self, use: Use) -> None:
        """A call's key, from the arrays it was given (after the run: no sync while it runs)."""
        if use.array is None:  # read already
            return
        recipe, leaves = use.array
        use.array = None
        try:
            key = _evaluate(recipe, leaves)
        except Exception:  # noqa: BLE001 - an array donated or deleted since: not known
            return
        use.bits = _bits(key)
        if recipe[0] == "fold_in" and use.bits is not None:
            parent = _bits(_evaluate(recipe[1], leaves))
            if parent is not None:
                self.parent.setdefault(use.bits, parent)

    def _read(self) -> None:
        """Every call's key, read after the run: READ_BATCH calls at a time, one stacked program
        each (not a dispatch per call); then every use in the order it happened."""
        for (recipe, site, step, call, grad), calls in self._calls.items():
            needed = tuple(sorted(_leaves_of(recipe)))
            for start in range(0, len(calls), READ_BATCH):
                chunk = calls[start : start + READ_BATCH]
                uses = [Use(site, step=step, seq=seq, at=call, grad=grad) for seq, _ in chunk]
                for use, (_, given) in zip(uses, chunk):
                    use.array = (recipe, _by_leaf(needed, given))
                try:
                    self._read_batch(recipe, uses)
                except Exception:  # noqa: BLE001 - one by one: a donated array fails alone
                    for use in uses:
                        if use.array is not None:
                            self._resolve(use)
                self.uses += uses
        self._calls.clear()
        self.uses.sort(key=lambda use: use.seq)

    def _read_batch(self, recipe: Recipe, chunk: list[Use]) -> None:
        """A chunk of calls' keys: an argument's bits are copied out directly (stacking typed keys
        in JAX costs 0.3 ms a key); a key folded from arguments is computed for the whole chunk
        in one vmapped program."""
        needed = sorted(_leaves_of(recipe))
        data = {i: _data([use.array[1][i] for use in chunk]) for i in needed}  # type: ignore[index]
        if recipe[0] == "leaf":
            rows = [bits.tobytes() for bits, _impl in data[recipe[1]]]
            parents = None
        else:
            stacked = {i: (np.stack([d for d, _ in column]), column[0][1]) for i, column in data.items()}

            def run(part: Recipe) -> list[bytes]:
                def one(values):
                    leaves = {
                        i: jax.random.wrap_key_data(v, impl=stacked[i][1]) if stacked[i][1] else v
                        for i, v in values.items()
                    }
                    return _evaluate(part, leaves)

                return _rows(jax.vmap(one)({i: d for i, (d, _impl) in stacked.items()}))

            rows, parents = run(recipe), run(recipe[1])
        for n, use in enumerate(chunk):
            use.bits, use.array = rows[n], None
            if parents is not None:
                self.parent.setdefault(rows[n], parents[n])

    def findings(self, failure: BaseException | None) -> list[Finding]:
        self._read()
        for keys, axis, site, call in self._batches:  # one key for every row of a vmapped batch
            try:
                repeated = _repeated_rows(keys, axis)
            except Exception:  # noqa: BLE001 - donated or deleted since: not known
                continue
            at = call or site
            if repeated and at not in self._batch_found:
                self._batch_found.add(at)
                self.static.append(dataclasses.replace(self._finding(at, site), count=repeated, name="vmap"))
        self._batches.clear()
        by_bits: dict[bytes, list[Use]] = defaultdict(list)
        for use in self.uses:
            if use.bits is not None:
                by_bits[use.bits].append(use)
        by_bits = {bits: _one_computation(uses) for bits, uses in by_bits.items()}
        again_of = {b: self._again(b, uses) for b, uses in by_bits.items()}
        reused = {b for b, again in again_of.items() if again}
        roots: dict[bytes, list[bytes]] = defaultdict(list)
        for bits in reused:
            roots[self._ancestor(bits, reused)].append(bits)
        out = list(self.static) + self._seeded_alike(by_bits)
        self.notes = []
        for root, family in roots.items():
            own = by_bits[root]
            sites = {u.site for u in own}
            if sites & self.handing_loops:
                continue  # a loop body that hands its key back unsplit: that loop-constant finding
            on_purpose = not self._not_repeated_on_purpose([root, *family], by_bits)
            if len(sites) == 1 and not any(u.step for u in own) and on_purpose:
                site = own[0].site
                self.notes.append(dataclasses.replace(self._finding(site, site, "constant"), count=len(own)))
                continue
            first = own[0].place
            # One root, one finding: where the key first came back, counting every use beyond the
            # allowed ones, and the reuse a replayed chain of keys split from it repeats.
            again = again_of[root]
            replayed = sum(len(again_of[b]) for b in family if b != root)
            inside = self._inside_library(own)
            if inside:  # the library reused it within one call of the learner's: the library's, a note
                note = self._finding(again[0].place, first)  # the learner's line that called in
                self.notes.append(dataclasses.replace(note, inside=inside, count=len(again) + replayed))
                continue
            remade = self._remade_at(root)
            returned = next((self.hands_back[u.site] for u in own if u.site in self.hands_back), None)
            if remade is not None:  # the line to change is where the key is made anew, each pass
                found = self._finding(remade[0], first, "remade")
                if remade[1]:  # ... by folding the same number into one key: said so
                    found = dataclasses.replace(found, name="fold_in")
            elif returned is not None:  # ... or where the step hands the key it consumed back
                found = self._finding(returned, next(u.site for u in own if u.site in self.hands_back), "handed-back")
            else:
                found = self._finding(again[0].place, first)
                handed = self._handed_down(own[0].frames, again[0].frames)
                if handed is not None:  # the line to change: the call that handed it down, or the callee's return
                    site, code = handed
                    noticed = again[0].place
                    found = dataclasses.replace(
                        self._finding(site, first, code), noticed_line=noticed[2] if site[0] == noticed[0] else None
                    )
            made = self._made_where(root)
            if found.code == "reused" and made is not None and self.code.shown(made[0]) == found.file:
                found = dataclasses.replace(found, made_line=made[2])  # the seed, or the state's constructor
            out.append(dataclasses.replace(found, count=len(again) + replayed))
        return out

    def _handed_down(self, a: Frames, b: Frames) -> tuple[Site, FindingCode] | None:
        """Where a key consumed twice (the learner's frames of each use, innermost first) should
        have been split or handed back. Both uses at one line of one function, reached by two
        calls of its caller (two layers' `__call__`, two constructors handed the same key): the
        second call, which handed the consumed key down again. Uses in two functions: in the
        function both are reached from (the nearest), the call that handed the already-consumed
        key down to the second use's callee; else, when the first use was in a callee that split
        the key it was given and kept the rest (a model's init), that callee's return; else the
        call that handed it to that callee. None: one function's own two uses, or not known."""
        if not a or not b:
            return None
        if (a[0][0], a[0][1]) == (b[0][0], b[0][1]):
            for k, (x, y) in enumerate(zip(a, b)):
                if (x[0], x[1], x[3]) != (y[0], y[1], y[3]):
                    return None
                if x[2] != y[2]:
                    return (y[:3], "handed-down") if k > 0 else None
            return None
        for j, outer in enumerate(b):
            i = next((i for i, f in enumerate(a) if (f[0], f[1], f[3]) == (outer[0], outer[1], outer[3])), None)
            if i is None:
                continue
            if i > 0:
                callee = a[i - 1]
                source = self.code.file(callee[0])
                if source is not None and source.keeps_rebound_argument(callee[3]):
                    line = source.return_line(callee[3]) or callee[3]
                    return (callee[0], callee[1], line), "kept"
            if j > 0:
                return outer[:3], "handed-down"
            return (a[i][:3], "handed-down") if i > 0 else None
        return None

    def _inside_library(self, own: list[Use]) -> str:
        """Where inside a library a key's uses all happened, within one call the learner made into
        it (`mcmc.run(key)` once, numpyro consuming the key twice): `numpyro/infer/util.py:435`.
        "" when any use is the learner's own, or the uses span calls (the learner handed the
        same key to the library twice)."""
        found = [getattr(self, "entries", {}).get(u.seq) for u in own]
        entries = [e for e in found if e is not None]
        if len(entries) < 2 or len(entries) != len(found) or len({e[0] for e in entries}) != 1:
            return ""
        return where_inside(entries[0][1], entries[1][1])

    @staticmethod
    def _not_repeated_on_purpose(family: list[bytes], by_bits: dict[bytes, list[Use]]) -> bool:
        """Whether a key's uses at one place are not one draw repeated on purpose (a fixed
        evaluation key): one of these keys drawn from for two different draws (two layers'
        weights of different shapes), or drawn from in a constructor (two objects built from one
        key are one object twice)."""
        for bits in family:
            uses = by_bits.get(bits, ())
            if len({u.draw for u in uses if u.draw}) > 1:
                return True
            if any(u.frames and u.frames[0][1] == "__init__" for u in uses):
                return True
        return False

    def _made_where(self, bits: bytes) -> Site | None:
        """Where the learner made this key, or the key it was split / folded from (eagerly)."""
        node: bytes | None = bits
        seen: set[bytes] = set()
        while node is not None and node not in seen:
            seen.add(node)
            places = self.made_at.get(node)
            if places:
                return places[0]
            node = self.parent.get(node)
        return None

    def _again(self, bits: bytes, uses: list[Use]) -> list[Use]:
        """The uses of a key beyond its fresh ones. A key made from a seed by the learner (or split
        from one, eagerly) is fresh once per seeding: each time a different line makes that seed
        again (separate demo cells that each seed PRNGKey(0) replay the same chain, each once),
        not each time one line makes it (PRNGKey(1) made anew on every pass is one key, reused)."""
        seed = self._seed_of(bits)
        if seed is None:
            return uses[self._fresh(bits) :]
        makes = self.made_seq[seed]
        out, seen = [], set()
        for use in uses:
            period, last = 0, None
            for seq, place in makes:
                if seq > use.seq:
                    break
                if place != last:
                    period, last = period + 1, place
            if period in seen:
                out.append(use)
            seen.add(period)
        return out

    def _seed_of(self, bits: bytes) -> bytes | None:
        """The key the learner made (by PRNGKey / key) that these bits are, or descend from."""
        node: bytes | None = bits
        seen: set[bytes] = set()
        while node is not None and node not in seen:
            seen.add(node)
            if self.made_seq.get(node) and len(self.made_seq[node]) == self.made.get(node, 0):
                return node
            node = self.parent.get(node)
        return None

    def _fresh(self, bits: bytes) -> int:
        """How many uses of a key are fresh: one per place that makes it (two cells that each seed
        PRNGKey(0) are two demos), not one per time a place makes it (PRNGKey(1) made anew on every
        pass of a loop is one key, fed to every step)."""
        places = self.made_at.get(bits) or []
        unplaced = self.made.get(bits, 0) - len(places)  # made where no frame of the learner's was
        return max(1, len(set(places)) + max(0, unplaced))

    def _remade_at(self, bits: bytes) -> tuple[Site, bool] | None:
        """The learner's line that made this key again and again (in a loop), if one did, from a
        seed or by folding one number into one key (True)."""
        for folded, places in ((False, self.made_at.get(bits) or []), (True, self.folded_at.get(bits) or [])):
            again = [p for p in dict.fromkeys(places) if places.count(p) >= 2]
            if again:
                return again[0], folded
        return None

    def _seeded_alike(self, by_bits: dict[bytes, list[Use]]) -> list[Finding]:
        """One line that made the same key twice (nnx.Rngs(params=0, dropout=0)) whose descendants
        are drawn from in two places: two streams that were meant to differ share their source.
        Reported where they were made."""
        children: dict[bytes, list[bytes]] = defaultdict(list)
        for child, parent in self.parent.items():
            children[parent].append(child)
        out = []
        for bits, places in self.made_at.items():
            twice = [p for p in set(places) if places.count(p) >= 2]
            if not twice:
                continue
            sites, todo, seen = set(), [bits], set()
            while todo:
                node = todo.pop()
                if node in seen:
                    continue
                seen.add(node)
                sites |= {u.site for u in by_bits.get(node, [])}
                todo.extend(children.get(node, []))
            if len(sites) >= 2:
                out += [self._finding(place, place, "same-seed") for place in twice]
        return out

    def _ancestor(self, bits: bytes, reused: set[bytes]) -> bytes:
        """The oldest reused key these bits were split or folded from (eagerly), or themselves."""
        root, node, seen = bits, bits, {bits}
        while (up := self.parent.get(node)) is not None and up not in seen:
            seen.add(up)
            if up in reused:
                root = up
            node = up
        return root
