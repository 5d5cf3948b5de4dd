ERROR: Metric 'n' already exists near identifier 'error' at /.*/json\.tp:[0-9]+:[0-9]+
WARNING: Number of errors: 1, skipped probes: 0, lost events: 0
ERROR: Metric 'n' already output near identifier 'error' at /.*/json\.stpm:[0-9]+:[0-9]+
WARNING: Number of errors: 1, skipped probes: 0, lost events: 0
