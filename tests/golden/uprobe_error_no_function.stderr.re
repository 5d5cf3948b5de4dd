semantic error: while resolving probe point: no match for function "nosuch" in .*/t_args \(similar functions: fact, add, main\)
