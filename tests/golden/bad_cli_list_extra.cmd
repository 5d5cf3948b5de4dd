@TAP@ -l begin -v extra
