# md2man.awk: Markdown of docs/*.md -> Markdown lowdown turns into a good man
# page (run by cmake/md2man.sh).
#  - drops the "# name(N)" title line some pages start with, and HTML comments;
#  - a table that would not fit an 80-column terminal becomes a definition
#    list, one item per row: the first cell is the term, the other cells
#    "Header: value" joined by "; " (tbl cannot fold such tables without
#    warnings, and wrapped table cells read worse than a list there).
# Code fences are copied untouched.

function plain_len(s,    t) {   # width of a cell as rendered
	t = s
	gsub(/`|\*\*|\\/, "", t)
	return length(t)
}

function split_row(line, cells,    n, i, s) {
	s = line
	gsub(/\\\|/, "\001", s)               # an escaped | is cell text
	sub(/^[ \t]*\|/, "", s); sub(/\|[ \t]*$/, "", s)
	n = split(s, cells, /\|/)
	for (i = 1; i <= n; i++) {
		gsub(/\001/, "\\|", cells[i])
		gsub(/^[ \t]+|[ \t]+$/, "", cells[i])
	}
	return n
}

function flush_table(    i, j, n, w, total, cells, head, nh, item) {
	if (nrows == 0)
		return
	nh = split_row(rows[1], head)
	total = 0
	for (j = 1; j <= nh; j++) {
		w[j] = plain_len(head[j])
		for (i = 3; i <= nrows; i++) {
			split_row(rows[i], cells)
			if (plain_len(cells[j]) > w[j])
				w[j] = plain_len(cells[j])
		}
		total += w[j] + 3
	}
	if (total <= 72) {
		for (i = 1; i <= nrows; i++)
			print rows[i]
	} else {
		for (i = 3; i <= nrows; i++) {
			n = split_row(rows[i], cells)
			# the term in bold unless it is code already
			print (cells[1] == "" ? "\\-" : cells[1] ~ /`|\*\*/ ? cells[1] : "**" cells[1] "**")
			item = ""
			for (j = 2; j <= n && j <= nh; j++) {
				if (cells[j] == "")
					continue
				item = item (item == "" ? "" : "; ") (nh == 2 ? "" : head[j] ": ") cells[j]
			}
			print ": " (item == "" ? "\\-" : item)
			print ""
		}
	}
	nrows = 0
}

/^```/ { flush_table(); fence = !fence; print; next }
fence { print; next }
!started && /^# [^ ].*\([1-8]\)/ { started = 1; next }
/^<!--.*-->[ \t]*$/ { next }
/[^ \t]/ { started = 1 }
/^[ \t]*\|/ { rows[++nrows] = $0; next }
{ flush_table(); print }
END { flush_table() }
