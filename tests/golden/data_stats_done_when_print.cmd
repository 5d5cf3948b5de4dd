@TAP@ -e 'global s probe timer.ms(1) { s <<< randint(1000); if (@count(s) == 2000) exit() } probe end { print(@hist_log(s)) }' | awk '
# The issue'"'"'s "done when", literally: a histogram in stap'"'"'s layout (output.md)
# whose counts sum to 2000. Values are random, so the layout is checked by shape.
NR == 1 { header = ($0 == "value |-------------------------------------------------- count"); next }
/^ +~$/ { next }
/^ *[0-9]+ \|@* +[0-9]+$/ {
    bar = $0; sub(/^[^|]*\|/, "", bar); sub(/ +[0-9]+$/, "", bar)
    count = $NF; sum += count; rows++
    if (count > max) max = count
    bars[rows] = length(bar); counts[rows] = count; widths[rows] = length($0)
    next
}
/^$/ { blank++; next }
{ bad++ }
END {
    for (i = 2; i <= rows; i++) if (widths[i] != widths[1]) bad++
    scale = max <= 50 ? 1 : int((max + 49) / 50)
    for (i = 1; i <= rows; i++) if (bars[i] != int(counts[i] / scale)) bad++
    printf("header=%d rows>0=%d blank_last=%d bad=%d sum=%d\n", header, rows > 0, blank == 1, bad, sum)
}'
