#!/bin/sh
# Built programs run through ${SPE_RUN:-} (the cross-compiling emulator, set by ctest; empty natively).
# spe-load --symfs and --source-dir kept in the database (meta rows load.symfs and
# load.source_dir, spe/settings.h) and used by spe-report when not given: the annotation
# with the files read (every instruction from the ELF, the source lines) equals the one
# with the options; each kept value is sealed for this user, and one kept by another
# user's load, or edited, is not used (a warning says so); once the files moved, a warning names each kept directory that is gone
# and the options given win; a load without them keeps the earlier ones.
#   cli_load_dirs.sh RECORD LOAD QUERY REPORT FIXTURES
set -u
. "$(dirname "$0")/../lib/testlib.sh"
record=$1 load=$2 query=$3 report=$4 fx=$5
scratch_dir cli-load-dirs
# this user's key for the seals (common/kept_dirs.h) in the scratch directory, not the real ~/.config
XDG_CONFIG_HOME=$tmp/me
export XDG_CONFIG_HOME
run() { ${SPE_RUN:-} "$@"; }
run "$record" --replay="$fx/workloads/traces/memwork.replay" -o "$tmp/m.data" >/dev/null 2>&1 || { echo "FAIL replay"; exit 1; }
mkdir "$tmp/files"
cp -r "$fx/elf" "$tmp/files/elf"
cp -r "$fx/workloads" "$tmp/files/src"
(cd "$tmp" && run "$load" m.data -o m.db --symfs=files/elf --source-dir=files/src --source-dir=files 2>/dev/null)
expect load_rc $? 0
kept=$(run "$query" -d "$tmp/m.db" --format=csv "SELECT key, value FROM meta WHERE key LIKE 'load.%'
	AND key NOT LIKE '%.seal' ORDER BY key" | tr -d '\r')
expect kept "$kept" "key,value
load.source_dir,\"$tmp/files/src
$tmp/files\"
load.symfs,$tmp/files/elf"

run "$report" -d "$tmp/m.db" --annotate=chase --symfs="$tmp/files/elf" --source-dir="$tmp/files/src" >"$tmp/given" 2>&1
run "$report" -d "$tmp/m.db" --annotate=chase >"$tmp/kept" 2>&1
expect "kept = given" "$(cat "$tmp/kept")" "$(cat "$tmp/given")"
has "the ELF was read" "$(cat "$tmp/kept")" "ldr"
has "the source was read" "$(cat "$tmp/kept")" "p = p->next;"
run "$report" -d "$tmp/m.db" --annotate=chase >"$tmp/bare" 2>&1 --symfs="$fx/elf"
has "an explicit --symfs, sources still kept" "$(cat "$tmp/bare")" "p = p->next;"

# each kept value sealed for this user: the key made on first use, private
expect seals "$(run "$query" -d "$tmp/m.db" --format=csv "SELECT count(*) FROM meta
	WHERE key IN ('load.symfs.seal', 'load.source_dir.seal') AND length(value) = 64" | tail -1 | tr -d '\r')" 2
expect key_mode "$(stat -c '%a %s' "$tmp/me/spekit/local.key")" "600 32"
# a database from elsewhere (another user's key), or whose kept values were edited, is not read under them
XDG_CONFIG_HOME=$tmp/other run "$report" -d "$tmp/m.db" --annotate=chase >"$tmp/other.out" 2>"$tmp/err"
expect "another user: exit" $? 0
has "another user: --symfs not used" "$(cat "$tmp/err")" "keeps --symfs=$tmp/files/elf from a load not made here by this user: not used"
has "another user: --source-dir not used" "$(cat "$tmp/err")" "keeps --source-dir values from a load not made here"
has "another user: no binary read" "$(cat "$tmp/other.out")" "the binary was not found"
cp "$tmp/m.db" "$tmp/edited.db"
run "$query" -d "$tmp/edited.db" --write "UPDATE meta SET value = '/' WHERE key IN ('load.symfs', 'load.source_dir')"
run "$report" -d "$tmp/edited.db" --annotate=chase >"$tmp/edited.out" 2>"$tmp/err"
has "edited: --symfs=/ not used" "$(cat "$tmp/err")" "keeps --symfs=/ from a load not made here by this user: not used"
case $(cat "$tmp/edited.out") in *"p = p->next;"*) echo "FAIL edited: a source line was read under /"; fail=1 ;; esac
expect "this user's database: still read" "$(run "$report" -d "$tmp/m.db" --annotate=chase 2>&1)" "$(cat "$tmp/given")"
# no place for a key (neither XDG_CONFIG_HOME nor HOME): kept unsealed, said, and not used
(cd "$tmp" && env -u HOME -u XDG_CONFIG_HOME ${SPE_RUN:-} "$load" m.data -o nokey.db --symfs=files/elf 2>"$tmp/err" >/dev/null)
has "no key: said" "$(cat "$tmp/err")" "load.symfs kept without a seal (this user's key: neither XDG_CONFIG_HOME nor HOME is set)"
expect "no key: no seal" "$(run "$query" -d "$tmp/nokey.db" --format=csv "SELECT count(*) FROM meta WHERE key LIKE '%.seal'" | tail -1 | tr -d '\r')" 0
run "$report" -d "$tmp/nokey.db" --annotate=chase >/dev/null 2>"$tmp/err"
has "no key: not used" "$(cat "$tmp/err")" "keeps --symfs=$tmp/files/elf from a load not made here by this user: not used"
# a key others can read is no secret: not used
chmod 644 "$tmp/me/spekit/local.key"
run "$report" -d "$tmp/m.db" --annotate=chase >/dev/null 2>"$tmp/err"
has "a readable key: not used" "$(cat "$tmp/err")" "from a load not made here by this user: not used"
chmod 600 "$tmp/me/spekit/local.key"

# the files moved: each kept directory gone is named, the options given win
mv "$tmp/files" "$tmp/moved"
run "$report" -d "$tmp/m.db" --annotate=chase >"$tmp/gone" 2>"$tmp/err"
expect "moved: exit" $? 0
has "moved: symfs named" "$(cat "$tmp/err")" "warning: the load's --symfs=$tmp/files/elf is not a directory now"
has "moved: source dir named" "$(cat "$tmp/err")" "the load's --source-dir=$tmp/files/src is not a directory now"
has "moved: the annotation says why" "$(cat "$tmp/gone")" "the binary was not found"
run "$report" -d "$tmp/m.db" --annotate=chase --symfs="$tmp/moved/elf" --source-dir="$tmp/moved/src" >"$tmp/again" 2>"$tmp/err"
expect "moved: options win" "$(cat "$tmp/again")" "$(cat "$tmp/given")"
expect "moved: options win, no warning" "$(cat "$tmp/err")" ""
# the text report reads no file: no warning
run "$report" -d "$tmp/m.db" >/dev/null 2>"$tmp/err"
expect "text report: no warning" "$(cat "$tmp/err")" ""

# --append without the options keeps the kept ones; with --symfs it replaces it
run "$record" --replay="$fx/workloads/traces/datawork.replay" -o "$tmp/d.data" >/dev/null 2>&1
run "$load" --append "$tmp/d.data" -o "$tmp/m.db" 2>/dev/null
expect "append keeps" "$(run "$query" -d "$tmp/m.db" --format=csv "SELECT value FROM meta WHERE key = 'load.symfs'" | tail -1 | tr -d '\r')" "$tmp/files/elf"
run "$load" --replace "$tmp/d.data" -o "$tmp/m.db" --symfs="$tmp/moved/elf" 2>/dev/null
expect "a later --symfs replaces" "$(run "$query" -d "$tmp/m.db" --format=csv "SELECT value FROM meta WHERE key = 'load.symfs'" | tail -1 | tr -d '\r')" "$tmp/moved/elf"
exit $fail
