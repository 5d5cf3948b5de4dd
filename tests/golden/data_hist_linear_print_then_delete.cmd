@TAP@ -e 'global s probe begin { s <<< 3; s <<< 27; print(@hist_linear(s, 0, 50, 10)); delete s; exit() }'
