@TAP@ --run /etc/hostname
