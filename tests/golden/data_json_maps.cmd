@TAP@ --format=json -e 'global x, a, s, h probe begin { x = 3; a[1,"k"] = 5; a[2,"j"] = 7; s["q"] <<< 4; h <<< 1; h <<< 5; h <<< 0; h <<< -2; print(@hist_log(h)); printf("hi\n"); exit() }'
