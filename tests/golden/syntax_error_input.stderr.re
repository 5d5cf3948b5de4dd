parse error: .*
        saw: operator '\}' at <input>:1:19
     source: probe begin \{ x = \}
                               \^
