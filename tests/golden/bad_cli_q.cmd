# stap -q is not "quiet" (that is -w) but its tapset coverage database: refused with the reason.
@TAP@ -q -e 'probe begin { exit() }'
