@TAP@ -D MAXSTRINGLEN=100 -e 'probe begin { s = sprintf("%0200d", 0); t = s . s; printf("%d %d\n", strlen(s), strlen(t)); exit() }'
