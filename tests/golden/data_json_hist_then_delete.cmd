@TAP@ --format=json -e 'global s probe begin { s <<< 5; s <<< 100; print(@hist_log(s)); delete s; exit() }'
