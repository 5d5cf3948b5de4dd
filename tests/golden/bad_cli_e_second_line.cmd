@TAP@ -e 'probe begin {
  println(nosuch())
}'
