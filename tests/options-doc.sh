#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The option reference lives in two places, `loadbench --help' and the man
# page's OPTIONS: every long option one names, the other names too, and
# every default --help gives as a value ("(default 2)"), the man page gives
# too (no root).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

man=$top_srcdir/src/loadbench.1
help=$("$LOADBENCH" --help)
in_help=$(grep -oE '^ +(-[a-zA-Z], )?--[a-z][a-z0-9-]*' <<<"$help" | grep -oE -- '--[a-z][a-z0-9-]*' |
	sort -u)
options=$(sed -n '/^\.SH OPTIONS/,/^\.SH /p' "$man")
in_man=$(grep -E '^\.(B|BI|BR)\b' <<<"$options" | grep -oE '\\-\\-[a-z][a-z0-9\\-]*' | tr -d '\\' |
	sort -u)
[[ $(wc -l <<<"$in_help") -ge 30 ]] || fail "--help names only $(wc -l <<<"$in_help") options: $in_help"
missing=$(comm -23 <(echo "$in_help") <(echo "$in_man"))
extra=$(comm -13 <(echo "$in_help") <(echo "$in_man"))
[[ -z $missing ]] || fail "in --help, not in the man page's OPTIONS: $(echo $missing)"
[[ -z $extra ]] || fail "in the man page's OPTIONS, not in --help: $(echo $extra)"
note "$(wc -l <<<"$in_help") options, each in both"

# Each option's help on one line ("--NAME text"), and its man page entry
# (.TP to .TP) as text: macros, fonts and escapes gone.
help_lines=$(sed -n '/^Options:/,/^$/p' <<<"$help" |
	awk '/^  (-[a-zA-Z], |    )--/ { if (l) print l; l = $0; next } { l = l " " $0 } END { print l }' |
	sed -E 's/^ +(-[a-zA-Z], )?//; s/ +/ /g')
man_entry() {
	awk -v opt="$1" '
		/^\.TP/ { if (found) exit; n = 0; next }
		!n++ && /^\.(B|BI|BR) / { t = $0; gsub(/\\/, "", t); found = index(t " ", opt " ") > 0 }
		found' <<<"$options" |
		sed -E 's/^\.[A-Z]+ ?//; s/\\f[BIRP]//g; s/\\-/-/g; s/"//g' | tr '\n' ' ' | sed -E 's/ +/ /g'
}
checked=0
while read -r opt text; do
	def=$(grep -oE '\(default [^ ,;:)]+' <<<"$text" | head -1 | cut -d' ' -f2) || true
	[[ -n $def ]] || continue
	grep -qiF "default $def" <<<"$(man_entry "$opt")" ||
		fail "$opt: --help says (default $def), its entry in the man page does not"
	checked=$((checked + 1))
done <<<"$help_lines"
[[ $checked -ge 20 ]] || fail "only $checked defaults found in --help"
note "$checked defaults, each in both"
echo "PASS"
