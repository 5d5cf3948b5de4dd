# -D HIST_ELISION=0 (no empty row kept around the data, as in data_hist_elision) holds for sprint too: print, then print of sprint, the same.
@TAP@ -D HIST_ELISION=0 -e 'global s probe begin { s <<< 1; s <<< 1000; s <<< -3; print(@hist_log(s)); print(sprint(@hist_log(s))); exit() }'
