# The classroom commands and the earlier "old breaks" (issue 50) on this host, one line each:
# "held NAME" or "BROKEN NAME: <what was said>". Meant for gVisor, as root and as an ordinary user:
#   runsc --network=none do env PATH=$PWD/.venv/bin:/usr/bin:/bin sh tools/gvisor/classroom_breaks.sh
#   runsc --network=none do env HOME=/tmp PYTHONPATH=$PWD:$PWD/.venv/lib/python3.11/site-packages \
#     setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all --bounding-set=-all \
#     env PY=/usr/bin/python3.11 sh tools/gvisor/classroom_breaks.sh
# Run from the repository's root. W (default: a new folder under /tmp) holds the homes and exports.
PY=${PY:-python3}
W=${W:-$(mktemp -d /tmp/jaxstate-breaks-XXXXXX)}
ROOT=$(pwd)
export JAXSTATE_TUTOR_LANG=en
unset JAXSTATE_TUTOR_COURSE JAXSTATE_TUTOR_HOME JAXSTATE_TUTOR_ACCELERATOR
T() { "$PY" -m tutor "$@"; }

# expect NAME WORDS RC-LIST COMMAND...: held when the command exits with one of RC-LIST (space
# separated) and says WORDS, with no traceback.
expect() {
  name=$1 words=$2 codes=$3
  shift 3
  out=$("$@" 2>&1 < /dev/null)
  rc=$?
  case " $codes " in *" $rc "*) ok=1 ;; *) ok=0 ;; esac
  case $out in *"$words"*) ;; *) ok=0 ;; esac
  case $out in *Traceback*|*MarkupError*) ok=0 ;; esac
  if [ $ok = 1 ]; then
    echo "held $name: $(printf '%s' "$out" | grep -v '^note' | tail -n 1 | cut -c 1-160)"
  else
    echo "BROKEN $name: rc $rc: $(printf '%s' "$out" | tail -c 600 | tr '\n' ' ')"
  fi
}

echo "host: $(id -un) ($(id -u)), $(uname -r), W=$W"
mkdir -p "$W/collected"

# ---- grade on a small collected folder, export --out ----
for who in alice bob; do
  T --home "$W/$who" check counter-jit --file "$ROOT/solutions/counter-jit.py" --json > "$W/$who.check" 2>&1
done
cp "$ROOT/lessons/exercises/counter-jit/starter.py" "$W/bob/workspace/counter-jit.py" 2>/dev/null
expect export-new "" "0" T --home "$W/alice" export --name alice --out "$W/collected/alice.json"
expect export-bob "" "0" T --home "$W/bob" export --name bob --out "$W/collected/bob.json"
expect export-onto-a-folder "is a folder, not a file" "2" T --home "$W/alice" export --name alice --out "$W/collected"
expect export-onto-dev-null "is a device, not a file" "2" T --home "$W/alice" export --name alice --out /dev/null
expect export-onto-anothers "alice" "2" T --home "$W/bob" export --name bob --out "$W/collected/alice.json"
expect grade-fence '"isolation": "fence"' "0" sh -c \
  "\"$PY\" -m tutor --home '$W/teacher' grade '$W/collected' --isolation fence --json '$W/table.json' && cat '$W/table.json'"
expect grade-auto "" "0" T --home "$W/teacher" grade "$W/collected" --json "$W/table-auto.json"
expect grade-csv-inside "" "2" T --home "$W/teacher" grade "$W/collected" --csv "$W/collected/table.csv"
"$PY" - "$W/table.json" <<'PY'
import json, sys
rows = [r for r in json.load(open(sys.argv[1]))["rows"] if r["status"] != "missing"]
got = sorted((r["learner"], r["exercise"], r["status"]) for r in rows)
want = [("alice", "counter-jit", "pass"), ("bob", "counter-jit", "pass")]
print(("held" if got == want else f"BROKEN") + f" grade-rows: {got}")
PY

# ---- the old breaks ----
expect home-empty-word "an empty word names no folder" "2" T --home '' list
mkdir -p "$W/lock/progress.lock" "$W/tmp-home/progress.json.tmp"
expect lock-a-folder "progress.lock is a folder, where the tutor keeps a file" "0" T --home "$W/lock" hint counter-jit
expect tmp-a-folder "progress.json.tmp is a folder, where the tutor keeps a file" "0" T --home "$W/tmp-home" hint counter-jit
expect timeout-1e12 "at most 604800" "2" T --home "$W/alice" check counter-jit --timeout 1e12
expect grade-timeout-1e12 "at most 604800" "2" T --home "$W/teacher" grade "$W/collected" --timeout 1e12
expect home-empty-word-zh "空字符串不是任何文件夹" "2" T --lang zh --home '' list
# watch on a home whose path holds Rich markup: it checks once (FAIL: the starter), then Ctrl+C
mkdir -p "$W/a[/x]b"
cat > "$W/watch.py" <<'PY'
import os, signal, subprocess, sys, time
signal.signal(signal.SIGINT, signal.SIG_DFL)  # a background shell's child inherits SIGINT ignored
proc = subprocess.Popen([sys.executable, "-m", "tutor", "--home", sys.argv[1], "watch", "counter-jit"],
                        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
seen, end = "", time.monotonic() + 300
while time.monotonic() < end and "FAIL" not in seen:
    line = proc.stdout.readline()
    if not line:
        break
    seen += line
proc.send_signal(signal.SIGINT)
rest, _ = proc.communicate(timeout=120)
print(seen + rest)
sys.exit(proc.returncode)
PY
expect watch-markup-home "FAIL" "130" "$PY" "$W/watch.py" "$W/a[/x]b"
ls /dev/shm 2>/dev/null | grep -c . | sed 's/^/files in \/dev\/shm: /'
