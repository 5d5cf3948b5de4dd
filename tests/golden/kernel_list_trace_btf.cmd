@TAP@ -L 'kernel.trace("sched:sched_switch")'; @TAP@ -L 'kernel.trace("sched:sched_wak*")'; @TAP@ -L 'kernel.trace("printk:console")'; @TAP@ -l 'kernel.trace("sched:sched_wak*")'
