#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The option reference lives in two places, `loadbench --help' and the man
# page's OPTIONS: every long option one names, the other names too (no root).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

man=$top_srcdir/src/loadbench.1
help=$("$LOADBENCH" --help)
in_help=$(grep -oE '^ +(-[a-zA-Z], )?--[a-z][a-z0-9-]*' <<<"$help" | grep -oE -- '--[a-z][a-z0-9-]*' |
	sort -u)
in_man=$(sed -n '/^\.SH OPTIONS/,/^\.SH /p' "$man" | grep -E '^\.(B|BI|BR)\b' |
	grep -oE '\\-\\-[a-z][a-z0-9\\-]*' | tr -d '\\' | sort -u)
[[ $(wc -l <<<"$in_help") -ge 30 ]] || fail "--help names only $(wc -l <<<"$in_help") options: $in_help"
missing=$(comm -23 <(echo "$in_help") <(echo "$in_man"))
extra=$(comm -13 <(echo "$in_help") <(echo "$in_man"))
[[ -z $missing ]] || fail "in --help, not in the man page's OPTIONS: $(echo $missing)"
[[ -z $extra ]] || fail "in the man page's OPTIONS, not in --help: $(echo $extra)"
note "$(wc -l <<<"$in_help") options, each in both"
echo "PASS"
