semantic error: while resolving probe point: no match for mark "tik" in /.*/t_usdt \(similar marks: tick, types, done\): identifier 'mark' at usdt_bad_no_mark.tp:3:15
        source: probe process.mark\("tik"\) \{ println\(\$arg1\) \}
                              \^
