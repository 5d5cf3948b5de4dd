3 pipe:\[[0-9]+\]
4 pipe:\[[0-9]+\]
5 socket:\[[0-9]+\]
6 socket:\[[0-9]+\]
7 ANON_INODE:\[eventfd\]
8 net:\[[0-9]+\]
9 UNKNOWN:\[0xffff[0-9a-f]{12}\]
one pipe: 1
own namespace: 1
1000: cannot find file in task
-1: cannot find file in task
