ERROR: invalid UTF-16 character U\+D800 at 0x[0-9a-f]+ near identifier 'user_string_utf16' at string_utf_error\.tp:6:11
WARNING: Number of errors: 1, skipped probes: 0, lost events: 0
