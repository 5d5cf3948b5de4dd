# With -v, a rejection prints the verifier's whole log (source lines, the
# instructions walked, the reason, statistics) before the two-line message.
# (A -e script has no file LLVM could read its line text from; 6.1's source
# lines carry no "@ file:line": any source line is collapsed to one.)
@TAP@ -v -D TAP_DEBUG_REJECT=1 -e 'probe timer.s(1) {
  println("tick") }' 2>&1 | grep -E '^(; .*|[0-9]+: \(85\) call unknown#100000|invalid func unknown#100000|processed [0-9]+ insns.*|ERROR: .*|       .*)$' |
  sed -E 's/^; .*/; (source line)/; s/^[0-9]+:/N:/; s/^processed [0-9]+ insns.*/processed N insns .../' | uniq; echo "tap: ${PIPESTATUS[0]}"
