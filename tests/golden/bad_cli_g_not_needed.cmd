# -g on a script with nothing guru in it: refused all the same, saying to drop -g.
@TAP@ -g -e 'probe begin { println("hi"); exit() }'
