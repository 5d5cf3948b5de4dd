@TAP@ -G x=99999999999999999999 -e "global x = 1; probe begin { println(x); exit() }"
