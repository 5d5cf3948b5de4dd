@TAP@ -l 'timer.ms(100)'; @TAP@ -l begin
