semantic error: while resolving probe point: /.*/t_args has no SDT marks \(no .note.stapsdt section\): identifier 'mark' at usdt_bad_no_notes.tp:3:15
        source: probe process.mark\("\*"\) \{ println\(\$arg1\) \}
                              \^
