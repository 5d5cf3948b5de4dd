@TAP@ usdt_args.tp -c @PROGRAMS@/t_usdt_o2
