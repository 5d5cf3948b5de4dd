@TAP@ -DSTP_NO_OVERLOAD -D STP_NO_BUILDID_CHECK -DMAXACTION=100 -e "probe begin { for (i = 0; i < 3; i++) println(i); exit() }"
