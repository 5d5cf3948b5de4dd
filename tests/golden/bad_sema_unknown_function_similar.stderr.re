semantic error: unresolved function prinln \(similar: ([a-z_]+, )*println(, [a-z_]+)*\): identifier 'prinln' at bad_sema_unknown_function_similar\.tp:2:15
        source: probe begin \{ prinln\("x"\); exit\(\) \}
                              \^
