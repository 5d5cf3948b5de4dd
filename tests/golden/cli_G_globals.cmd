@TAP@ -G n=7 -G s=hi -G neg=-3 -e 'global n = 1, s = "a", neg probe begin { printf("%d %s %d\n", n, s, neg); exit() }'
