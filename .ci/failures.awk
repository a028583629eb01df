# Prints every failed test of a TAP log, so the end of a long run names what failed.
# A top-level "not ok" is a test file, one with "# time=" a subtest (its name is enough),
# any other a failed assertion: its YAML block is kept but for the source and stack (its "at:" says where).
/^[ \t]*not ok / {
  want = 0; inblock = 0
  if ($0 ~ /^not ok /) { print "FAILED FILE: " substr($0, 8); next }
  print $0
  if ($0 !~ /# time=[0-9.]+m?s$/) { want = 1; shown = 0 }
  next
}
want && !inblock && /^[ \t]*---$/ { inblock = 1; base = match($0, /-/); skip = 0; next }
inblock && /^[ \t]*\.\.\.$/ { inblock = 0; want = 0; next }
inblock {
  # a key at the block's own indent starts a section
  if (match($0, /[^ ]/) == base && $0 ~ /^[ \t]*[a-zA-Z_]+:/) skip = ($0 ~ /^[ \t]*(source|stack):/)
  if (!skip && shown++ < 20) print $0
  next
}
{ want = 0 }
