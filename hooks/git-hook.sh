#!/bin/sh
# memgit-hook-id: 3f6c1b9e-memgit
# Written by `memgit hooks install` for the @HOOK@ hook; `memgit hooks uninstall` removes it
# and puts back the hook that was here before (kept next to this file as @HOOK@.legacy, which
# runs first). Edits here are lost on reinstall: put your own commands in @HOOK@.legacy.
MEMGIT_HOOK=@HOOK@
MEMGIT_PYTHON=@PYTHON@
MEMGIT_PYTHONPATH=@PYTHONPATH@
# 1: this hook may stop the git operation (lint); 0: it never does (index updates).
MEMGIT_BLOCKING=@BLOCKING@

# Every process counts on an empty or code-only commit: the common paths below fork one `git`
# and nothing else (no `dirname`, `sed`, `cat`, no `rev-parse` the environment already answers).
nl='
'
tab='	'
case $0 in
    */*) here=${0%/*} ;;
    *) here=. ;;
esac
legacy="$here/$MEMGIT_HOOK.legacy"
# This script may itself be NAME.legacy: another hook manager (the pre-commit framework's
# `pre-commit install`) moved it aside and runs it first. It has no hook of its own to chain
# then, and running "NAME.legacy" would run itself, again and again. (`-ef`, same file, also
# catches a NAME.legacy that links back here; a shell without it just says no.)
case ${0##*/} in
    "$MEMGIT_HOOK.legacy") legacy= ;;
esac
if [ -n "$legacy" ] && [ "$legacy" -ef "$0" ] 2>/dev/null; then
    legacy=
fi

# post-rewrite is the one hook type here that git feeds on stdin. A chained hook and memgit both
# need it, so it is copied then; otherwise memgit's Python (if it runs at all) reads it directly.
legacy_status=0
if [ -x "$legacy" ]; then
    if [ "$MEMGIT_HOOK" = post-rewrite ]; then
        stdin_copy=$(cat; echo .)
        stdin_copy=${stdin_copy%.}
        printf '%s' "$stdin_copy" | "$legacy" "$@" || legacy_status=$?
    else
        "$legacy" "$@" || legacy_status=$?
    fi
fi

if [ "${MEMGIT_SKIP_HOOKS:-}" = 1 ]; then
    exit "$legacy_status"
fi

run_memgit() {
    if [ -x "$MEMGIT_PYTHON" ]; then
        if [ -n "$MEMGIT_PYTHONPATH" ]; then
            PYTHONPATH="$MEMGIT_PYTHONPATH${PYTHONPATH:+:$PYTHONPATH}"
            export PYTHONPATH
        fi
        MEMGIT_HOOK_DIFF="$handover" "$MEMGIT_PYTHON" -m memgit hook "$MEMGIT_HOOK" "$@"
    elif command -v memgit >/dev/null 2>&1; then
        MEMGIT_HOOK_DIFF="$handover" memgit hook "$MEMGIT_HOOK" "$@"
    else
        echo "memgit not found: $MEMGIT_PYTHON is gone and no memgit on PATH; reinstall memgit and run \`memgit hooks install\`, or run \`memgit hooks uninstall\`"
        return 127
    fi
}

# What the shell decided, handed to memgit's Python (MEMGIT_HOOK_DIFF) so that it does not decide
# again: empty for the lint hook (Python judges every staged line), else "due" or, when the shell
# compared the trees itself, the indexed tree and HEAD's commit on a line, then git's raw diff
# between them, which the update applies as it is.
handover=

# Fast paths without starting Python, for commits that cannot concern memory. The shell's notion
# of "could be memory" is wider than memgit's, never narrower: a path that might be a memory file
# or look like one (the lint warns about those), memgit.toml, any path git quotes (non-ASCII,
# control characters, quotes: core.quotePath is forced on, so a user's `false` cannot hand the
# shell names it would misjudge), or any path at all when memgit.toml sets `extra_paths` (the
# shell does not match those globs). A path in a hidden folder is none of these (memgit never
# indexes or lints it as memory). Paths arrive one per line, as `git diff --name-only` prints
# them, or as `git diff-tree --raw` does (the path after a tab, which git quotes in a name).
paths_may_be_memory() {
    [ -n "$1" ] || return 1
    old_ifs=$IFS
    IFS=$nl
    set -f
    found=1
    visible=1
    for path in $1; do
        path=${path#*"$tab"}
        case $path in
            \"*)
                found=0
                break
                ;;
            .*|*/.*)
                # In a hidden folder or a dotfile (memory/.dreams/, .github/): never memory, not
                # even through extra_paths, and nothing the lint judges (published recalls).
                continue
                ;;
            memgit.toml|*[Mm][Ee][Mm][Oo][Rr][YyIi]*|*[Uu][Ss][Ee][Rr].[Mm][Dd]|*.[Jj][Ss][Oo][Nn][Ll]|*[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9].*)
                found=0
                break
                ;;
        esac
        visible=0
    done
    set +f
    IFS=$old_ifs
    [ "$found" = 0 ] || { [ "$visible" = 0 ] && config_widens_memory; }
}

# Does a staged path name a note outside a hidden folder (Markdown or plain text)? The lint reads
# every such note for secrets, memory or not (a `people.md` beside the memory files is pushed too).
paths_hold_notes() {
    old_ifs=$IFS
    IFS=$nl
    set -f
    found=1
    for path in $1; do
        case $path in
            .*|*/.*) continue ;;
            *.[Mm][Dd]|*.[Mm][Aa][Rr][Kk][Dd][Oo][Ww][Nn]|*.[Tt][Xx][Tt])
                found=0
                break
                ;;
        esac
    done
    set +f
    IFS=$old_ifs
    return "$found"
}

# Does memgit.toml (the work tree's, which memgit reads) set `extra_paths`, in any TOML spelling
# (`[memory]` table, dotted `memory.extra_paths`, inline table, quoted or escaped key)? Comment
# lines do not count; an unreadable file does. One `grep`, only for commits that stage files.
config_widens_memory() {
    [ -f memgit.toml ] || return 1
    grep -Eq '^[[:space:]]*([^#[:space:]].*)?(extra_paths|\\[uU])' memgit.toml 2>/dev/null
    [ "$?" -ne 1 ]
}

if [ "$MEMGIT_BLOCKING" = 1 ]; then
    # The lint hook: is anything staged (in the index git named: GIT_INDEX_FILE, which `commit -a`
    # points at a temporary index) possibly memory? Renames count as a deletion and an addition,
    # so a file moved into or out of the memory paths is seen on both sides. A git failure (say,
    # an unborn HEAD it cannot diff) means "ask Python".
    if staged=$(git -c core.quotePath=true diff --cached --name-only --no-renames 2>/dev/null) &&
        ! paths_may_be_memory "$staged" && ! paths_hold_notes "$staged"; then
        exit "$legacy_status"
    fi
    run_memgit "$@" >&2
    status=$?
    if [ "$legacy_status" -ne 0 ]; then
        exit "$legacy_status"
    fi
    if [ "$status" -eq 127 ]; then
        echo "memgit: error: the $MEMGIT_HOOK hook cannot run memgit (see above); commit with MEMGIT_SKIP_HOOKS=1 to skip it once" >&2
        exit 1
    fi
    exit "$status"
fi

# Index hooks never fail a git operation: whatever happens, at most one warning line, exit as
# the chained hook did.

# Hook arguments that say HEAD did not move: a file-only checkout, a squash merge.
if [ "$MEMGIT_HOOK" = post-checkout ] && [ "${3:-}" = 0 ]; then
    exit "$legacy_status"
fi
if [ "$MEMGIT_HOOK" = post-merge ] && [ "${1:-}" = 1 ]; then
    exit "$legacy_status"
fi

# The git directory, from what git hands its hooks: GIT_DIR when it exported one (linked
# worktrees), else `.git` in the work tree's top folder (a hook's working directory), a
# directory or a `gitdir:` file (submodules, --separate-git-dir). Only a bare or unusual layout
# pays a `git rev-parse`. A wrong guess can only cost time: the index marker is then missing, or
# names a tree git cannot find, and Python decides.
git_dir=${GIT_DIR:-}
if [ -z "$git_dir" ]; then
    if [ -d .git ]; then
        git_dir=.git
    elif [ -f .git ]; then
        IFS= read -r gitdir_line < .git || :
        case $gitdir_line in
            "gitdir: "*) git_dir=${gitdir_line#gitdir: } ;;
        esac
    fi
    if [ -z "$git_dir" ]; then
        git_dir=$(git rev-parse --absolute-git-dir 2>/dev/null) || git_dir=
    fi
fi

# During a rebase git runs post-commit for every picked commit; the rebase's own post-rewrite
# updates the index once at the end (memgit's Python skips these too).
if [ "$MEMGIT_HOOK" = post-commit ] && [ -n "$git_dir" ] &&
    { [ -d "$git_dir/rebase-merge" ] || [ -d "$git_dir/rebase-apply" ]; }; then
    exit "$legacy_status"
fi

# HEAD's commit, read from the files git keeps it in (no process): the diff below is taken to that
# very commit, and Python, told which, applies it only while HEAD is still there. A ref git
# packed, or any layout this does not know, leaves the comparison to `HEAD` and the diff to Python.
head_commit=
if [ -n "$git_dir" ] && IFS= read -r head_line < "$git_dir/HEAD" 2>/dev/null; then
    case $head_line in
        "ref: refs/heads/"*)
            common_dir=$git_dir
            if [ -f "$git_dir/commondir" ] && IFS= read -r common_dir < "$git_dir/commondir"; then
                case $common_dir in
                    /*) ;;
                    *) common_dir=$git_dir/$common_dir ;;
                esac
            fi
            if [ -f "$common_dir/${head_line#ref: }" ]; then
                IFS= read -r head_commit < "$common_dir/${head_line#ref: }" || head_commit=
            fi
            ;;
        *) head_commit=$head_line ;;
    esac
fi
case ${#head_commit}:$head_commit in
    40:*[!0-9a-f]*|64:*[!0-9a-f]*) head_commit= ;;
    40:*|64:*) ;;
    *) head_commit= ;;
esac

# Fast no-op in one `git diff-tree`: the paths that differ between the tree the index holds
# (the indexer writes it to <git dir>/memgit/indexed_tree, the tree's id first on the line: a
# ` worktree` after it speaks to searches, not to hooks) and HEAD. None (an empty commit, a
# checkout of the same tree) or none that could be memory (a code commit, a checkout of a branch
# that differs only in code): the index still answers for HEAD's memory. It stays at its tree
# until the next memory change or reader (`memgit search`, the MCP server) moves it along.
indexed_tree=
if [ -n "$git_dir" ] && [ -f "$git_dir/memgit/index.sqlite" ] && [ -f "$git_dir/memgit/indexed_tree" ]; then
    IFS=' ' read -r indexed_tree _overlay < "$git_dir/memgit/indexed_tree" || :
fi
# (git diff-tree reads the index file though it compares two trees; pointing it at a file that
# does not exist spares it parsing one entry per tracked file.)
handover=due
if [ -n "$indexed_tree" ]; then
    if changed=$(GIT_INDEX_FILE="$git_dir/memgit/no-index" \
        git -c core.quotePath=true diff-tree -r --raw --no-abbrev --no-renames "$indexed_tree" "${head_commit:-HEAD}" -- 2>/dev/null); then
        paths_may_be_memory "$changed" || exit "$legacy_status"
        # The environment holds ~128 KB a variable: a longer diff (a checkout far back) is read again.
        if [ -n "$head_commit" ] && [ "${#changed}" -le 100000 ]; then
            handover="$indexed_tree $head_commit$nl$changed"
        fi
    fi
fi

if [ -n "${stdin_copy+set}" ]; then
    output=$(printf '%s' "$stdin_copy" | run_memgit "$@" 2>&1)
elif [ "$MEMGIT_HOOK" = post-rewrite ]; then
    output=$(run_memgit "$@" 2>&1)
else
    output=$(run_memgit "$@" 2>&1 </dev/null)
fi
status=$?
if [ "$status" -ne 0 ]; then
    echo "memgit: warning: the $MEMGIT_HOOK hook could not update the index (exit $status: ${output##*"$nl"}); run \`memgit index\` to catch up" >&2
elif [ -n "$output" ]; then
    printf '%s\n' "${output%%"$nl"*}" >&2
fi
exit "$legacy_status"
