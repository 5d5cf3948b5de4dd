@TAP@ -G x=12x -e "global x = 1; probe begin { println(x); exit() }"
