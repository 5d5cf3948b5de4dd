@TAP@ -D HIST_ELISION=0 -e 'global s probe begin { s <<< 1; s <<< 1000; s <<< -3; print(@hist_log(s)); exit() }'
