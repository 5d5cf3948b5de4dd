# tz_gmtoff(), tz_name(), tz_ctime() in the zone of tap's TZ (POSIX zones, so
# no tzdata is needed): seconds west of UTC, the abbreviation, ctime() of the
# local time then the zone, as SystemTap's tzinfo tapset. A negative local
# time is ctime()'s "a long, long time ago...".
script='probe begin { printf("%d %s [%s] [%s]\n", tz_gmtoff(), tz_name(), tz_ctime(0), tz_ctime(1782000000)); exit() }'
TZ=UTC0 @TAP@ -e "$script"
TZ=IST-5:30 @TAP@ -e "$script"
TZ=EST5 @TAP@ -e "$script"
