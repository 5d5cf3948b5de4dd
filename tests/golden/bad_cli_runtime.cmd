@TAP@ --runtime=dyninst -e 'probe begin { exit() }'; echo "rc=$?"; @TAP@ --skip-badvars -e 'probe begin { exit() }'; echo "rc=$?"
