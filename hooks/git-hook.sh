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

# The hook's directory without spawning `dirname` (every process counts on an empty commit).
case $0 in
    */*) here=${0%/*} ;;
    *) here=. ;;
esac
legacy="$here/$MEMGIT_HOOK.legacy"

# post-rewrite is the one hook type here that git feeds on stdin; both hooks need a copy.
if [ "$MEMGIT_HOOK" = post-rewrite ]; then
    stdin_copy=$(cat; echo .)
    stdin_copy=${stdin_copy%.}
fi

legacy_status=0
if [ -x "$legacy" ]; then
    if [ "$MEMGIT_HOOK" = post-rewrite ]; then
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
        "$MEMGIT_PYTHON" -m memgit hook "$MEMGIT_HOOK" "$@"
    elif command -v memgit >/dev/null 2>&1; then
        memgit hook "$MEMGIT_HOOK" "$@"
    else
        echo "memgit not found: $MEMGIT_PYTHON is gone and no memgit on PATH; reinstall memgit and run \`memgit hooks install\`, or run \`memgit hooks uninstall\`"
        return 127
    fi
}

# Fast paths without starting Python, for commits that cannot concern memory. Conservative: a path
# that might be a memory file or look like one (the lint warns about those), memgit.toml, a quoted
# (unusual) path, or [memory] extra_paths in memgit.toml (the shell cannot match those globs) all
# count as memory; a git failure means "ask Python".
paths_may_be_memory() {
    [ -n "$1" ] || return 1
    if [ -f memgit.toml ] && grep -q '^[[:space:]]*extra_paths' memgit.toml 2>/dev/null; then
        return 0
    fi
    old_ifs=$IFS
    IFS='
'
    set -f
    found=1
    for path in $1; do
        case $path in
            \"*|memgit.toml|*[Mm][Ee][Mm][Oo][Rr][YyIi]*|*[Uu][Ss][Ee][Rr].[Mm][Dd]|*.[Jj][Ss][Oo][Nn][Ll]|*[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9].*)
                found=0
                break
                ;;
        esac
    done
    set +f
    IFS=$old_ifs
    return $found
}

# The lint hook: is anything staged (in the index git named, GIT_INDEX_FILE for `commit -a`) memory?
staged_may_be_memory() {
    staged=$(git diff --cached --name-only --no-renames 2>/dev/null) || return 0
    paths_may_be_memory "$staged"
}

if [ "$MEMGIT_BLOCKING" = 1 ]; then
    if ! staged_may_be_memory; then
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

# Fast no-op, without starting Python: HEAD's tree is the tree the index holds (the indexer
# writes it to <git dir>/memgit/indexed_tree), or a checkout of files that left HEAD alone.
if [ "$MEMGIT_HOOK" = post-checkout ] && [ "${3:-}" = 0 ]; then
    exit "$legacy_status"
fi
probe=$(git rev-parse --absolute-git-dir --verify -q 'HEAD^{tree}' 2>/dev/null)
nl='
'
git_dir=${probe%%"$nl"*}
head_tree=${probe#*"$nl"}
indexed_tree=
if [ -n "$git_dir" ] && [ -f "$git_dir/memgit/index.sqlite" ] && [ -f "$git_dir/memgit/indexed_tree" ]; then
    IFS= read -r indexed_tree < "$git_dir/memgit/indexed_tree" || :
fi
if [ -n "$indexed_tree" ] && [ "$indexed_tree" = "$head_tree" ]; then
    exit "$legacy_status"
fi
# HEAD moved, but only non-memory files differ from the indexed tree (a code commit, a checkout
# of a branch that differs in code): the index still answers for HEAD's memory. It stays at its
# tree until the next memory change or reader (`memgit search`, the MCP server) moves it along.
if [ -n "$indexed_tree" ] && [ -n "$head_tree" ]; then
    changed=$(git diff-tree -r --name-only --no-renames "$indexed_tree" "$head_tree" 2>/dev/null) &&
        ! paths_may_be_memory "$changed" && exit "$legacy_status"
fi

if [ "$MEMGIT_HOOK" = post-rewrite ]; then
    output=$(printf '%s' "$stdin_copy" | run_memgit "$@" 2>&1)
else
    output=$(run_memgit "$@" 2>&1 </dev/null)
fi
status=$?
if [ "$status" -ne 0 ]; then
    last=$(printf '%s\n' "$output" | sed -n '$p')
    echo "memgit: warning: the $MEMGIT_HOOK hook could not update the index (exit $status: $last); run \`memgit index\` to catch up" >&2
elif [ -n "$output" ]; then
    printf '%s\n' "$output" | sed -n '1p' >&2
fi
exit "$legacy_status"
