semantic error: while resolving probe point: no match for tracepoint "workqueue:workqueue_creation": identifier 'trace' at .*irq\.tp:[0-9]+:[0-9]+
        source: probe workqueue\.create = kernel\.trace\("workqueue:workqueue_creation"\) \{
 +\^
semantic error: probe alias workqueue\.create cannot be used here \(its points failed above\): identifier 'workqueue' at kernel_tapset_workqueue_gone\.tp:4:7
        source: probe workqueue\.create \{ println\(cpu\) \}
                      \^
semantic error: while resolving probe point: no match for tracepoint "workqueue:workqueue_insertion": identifier 'trace' at .*irq\.tp:[0-9]+:[0-9]+
        source: probe workqueue\.insert = kernel\.trace\("workqueue:workqueue_insertion"\) \{
 +\^
semantic error: probe alias workqueue\.insert cannot be used here \(its points failed above\): identifier 'workqueue' at kernel_tapset_workqueue_gone\.tp:5:7
        source: probe workqueue\.insert \{ println\(work_func\) \}
                      \^
semantic error: while resolving probe point: no match for tracepoint "workqueue:workqueue_execution": identifier 'trace' at .*irq\.tp:[0-9]+:[0-9]+
        source: probe workqueue\.execute = kernel\.trace\("workqueue:workqueue_execution"\) \{
 +\^
semantic error: probe alias workqueue\.execute cannot be used here \(its points failed above\): identifier 'workqueue' at kernel_tapset_workqueue_gone\.tp:6:7
        source: probe workqueue\.execute \{ println\(work\) \}
                      \^
semantic error: while resolving probe point: no match for tracepoint "workqueue:workqueue_destruction": identifier 'trace' at .*irq\.tp:[0-9]+:[0-9]+
        source: probe workqueue\.destroy = kernel\.trace\("workqueue:workqueue_destruction"\) \{
 +\^
semantic error: probe alias workqueue\.destroy cannot be used here \(its points failed above\): identifier 'workqueue' at kernel_tapset_workqueue_gone\.tp:7:7
        source: probe workqueue\.destroy \{ println\(wq_thread\) \}
                      \^
