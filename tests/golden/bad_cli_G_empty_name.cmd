@TAP@ -G =1 -e "global x = 1; probe begin { println(x); exit() }"
