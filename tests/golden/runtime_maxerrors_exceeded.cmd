# runtime_maxerrors.tp with -D MAXERRORS=2: the third error ends the session (no end probe).
@TAP@ -D MAXERRORS=2 runtime_maxerrors.tp
