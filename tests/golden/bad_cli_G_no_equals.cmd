@TAP@ -G x -e "global x = 1; probe begin { println(x); exit() }"
