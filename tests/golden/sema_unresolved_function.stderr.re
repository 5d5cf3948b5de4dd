semantic error: unresolved function undefined_fn( \(similar: .*\))?: identifier 'undefined_fn' at sema_unresolved_function\.tp:3:11
        source:   println\(undefined_fn\(total\)\)
                          \^
