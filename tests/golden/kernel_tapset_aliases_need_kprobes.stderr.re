semantic error: probe point kernel\.function\("schedule_tail"\) needs (kprobes or )?BPF trampolines.*: identifier .kernel. at .*kprocess\.tp:[0-9]+:[0-9]+
        source: probe kprocess\.start = kernel\.function\("schedule_tail"\) \{ \}
 +\^
semantic error: probe alias kprocess\.start cannot be used here \(its points failed above\): identifier 'kprocess' at kernel_tapset_aliases_need_kprobes\.tp:5:7
        source: probe kprocess\.start \{ println\(name\) \}
                      \^
semantic error: probe point kernel\.function\("idle_balance"\) needs (kprobes or )?BPF trampolines.*: identifier .kernel. at .*scheduler\.tp:[0-9]+:[0-9]+
        source:                           kernel\.function\("idle_balance"\) \{
 +\^
semantic error: probe alias scheduler\.balance cannot be used here \(its points failed above\): identifier 'scheduler' at kernel_tapset_aliases_need_kprobes\.tp:6:7
        source: probe scheduler\.balance \{ println\(name\) \}
                      \^
semantic error: probe point kernel\.function\("scheduler_tick"\) needs (kprobes or )?BPF trampolines.*: identifier .kernel. at .*scheduler\.tp:[0-9]+:[0-9]+
        source: probe scheduler\.tick = kernel\.function\("sched_tick"\) !, kernel\.function\("scheduler_tick"\) \{   \# 6\.10 renamed it
 +\^
semantic error: probe alias scheduler\.tick cannot be used here \(its points failed above\): identifier 'scheduler' at kernel_tapset_aliases_need_kprobes\.tp:7:7
        source: probe scheduler\.tick \{ println\(name\) \}
                      \^
semantic error: probe point kernel\.function\("check_kill_permission"\) needs (kprobes or )?BPF trampolines.*: identifier .kernel. at .*signal\.tp:[0-9]+:[0-9]+
        source: probe signal\.checkperm = kernel\.function\("check_kill_permission"\) \{
 +\^
semantic error: probe alias signal\.checkperm cannot be used here \(its points failed above\): identifier 'signal' at kernel_tapset_aliases_need_kprobes\.tp:8:7
        source: probe signal\.checkperm \{ println\(name\) \}
                      \^
semantic error: probe point kernel\.function\("flush_signals"\) needs (kprobes or )?BPF trampolines.*: identifier .kernel. at .*signal\.tp:[0-9]+:[0-9]+
        source: probe signal\.flush = kernel\.function\("flush_signals"\) \{
 +\^
semantic error: probe alias signal\.flush cannot be used here \(its points failed above\): identifier 'signal' at kernel_tapset_aliases_need_kprobes\.tp:9:7
        source: probe signal\.flush \{ println\(name\) \}
                      \^
semantic error: probe point kernel\.function\("signal_wake_up_state"\) needs (kprobes or )?BPF trampolines.*: identifier .kernel. at .*signal\.tp:[0-9]+:[0-9]+
        source: probe signal\.wakeup = kernel\.function\("signal_wake_up_state"\) \{
 +\^
semantic error: probe alias signal\.wakeup cannot be used here \(its points failed above\): identifier 'signal' at kernel_tapset_aliases_need_kprobes\.tp:10:7
        source: probe signal\.wakeup \{ println\(name\) \}
                      \^
semantic error: probe point kernel\.function\("tcp_v4_rcv"\) needs (kprobes or )?BPF trampolines.*: identifier .kernel. at .*tcp\.tp:[0-9]+:[0-9]+
        source: probe tcp\.ipv4\.receive = kernel\.function\("tcp_v4_rcv"\) \{
 +\^
semantic error: probe alias tcp\.ipv4\.receive cannot be used here \(its points failed above\): identifier 'tcp' at kernel_tapset_aliases_need_kprobes\.tp:11:7
        source: probe tcp\.ipv4\.receive \{ println\(name\) \}
                      \^
semantic error: probe point kernel\.function\("do_brk"\) needs (kprobes or )?BPF trampolines.*: identifier .kernel. at .*memory\.tp:[0-9]+:[0-9]+
        source: probe vm\.brk = kernel\.function\("do_brk_flags"\) !, kernel\.function\("do_brk"\) \{
 +\^
semantic error: probe alias vm\.brk cannot be used here \(its points failed above\): identifier 'vm' at kernel_tapset_aliases_need_kprobes\.tp:12:7
        source: probe vm\.brk \{ println\(name\) \}
                      \^
semantic error: probe point kernel\.function\("vm_mmap"\) needs (kprobes or )?BPF trampolines.*: identifier .kernel. at .*memory\.tp:[0-9]+:[0-9]+
        source: probe vm\.mmap = kernel\.function\("vm_mmap"\) \{
 +\^
semantic error: probe alias vm\.mmap cannot be used here \(its points failed above\): identifier 'vm' at kernel_tapset_aliases_need_kprobes\.tp:13:7
        source: probe vm\.mmap \{ println\(name\) \}
                      \^
semantic error: probe point kernel\.function\("do_munmap"\) needs (kprobes or )?BPF trampolines.*: identifier .kernel. at .*memory\.tp:[0-9]+:[0-9]+
        source: probe vm\.munmap = kernel\.function\("do_munmap"\) \{
 +\^
semantic error: probe alias vm\.munmap cannot be used here \(its points failed above\): identifier 'vm' at kernel_tapset_aliases_need_kprobes\.tp:14:7
        source: probe vm\.munmap \{ println\(name\) \}
                      \^
semantic error: probe point kernel\.function\("dev_set_mac_address"\) needs (kprobes or )?BPF trampolines.*: identifier .kernel. at .*networking\.tp:[0-9]+:[0-9]+
        source: probe netdev\.change_mac = kernel\.function\("dev_set_mac_address"\) \{
 +\^
semantic error: probe alias netdev\.change_mac cannot be used here \(its points failed above\): identifier 'netdev' at kernel_tapset_aliases_need_kprobes\.tp:15:7
        source: probe netdev\.change_mac \{ println\(dev_name\) \}
                      \^
semantic error: probe point kernel\.function\("dev_set_mtu_ext"\) needs (kprobes or )?BPF trampolines.*: identifier .kernel. at .*networking\.tp:[0-9]+:[0-9]+
        source: probe netdev\.change_mtu = kernel\.function\("netif_set_mtu_ext"\) !, kernel\.function\("dev_set_mtu_ext"\) \{
 +\^
semantic error: probe alias netdev\.change_mtu cannot be used here \(its points failed above\): identifier 'netdev' at kernel_tapset_aliases_need_kprobes\.tp:16:7
        source: probe netdev\.change_mtu \{ println\(dev_name\) \}
                      \^
semantic error: probe point kernel\.function\("dev_change_rx_flags"\) needs (kprobes or )?BPF trampolines.*: identifier .kernel. at .*networking\.tp:[0-9]+:[0-9]+
        source: probe netdev\.change_rx_flag = kernel\.function\("dev_change_rx_flags"\) \{
 +\^
semantic error: probe alias netdev\.change_rx_flag cannot be used here \(its points failed above\): identifier 'netdev' at kernel_tapset_aliases_need_kprobes\.tp:17:7
        source: probe netdev\.change_rx_flag \{ println\(dev_name\) \}
                      \^
semantic error: probe point kernel\.function\("dev_close"\) needs (kprobes or )?BPF trampolines.*: identifier .kernel. at .*networking\.tp:[0-9]+:[0-9]+
        source: probe netdev\.close = kernel\.function\("dev_close"\) \{ dev_name = get_netdev_name\(\$dev\) \}
 +\^
semantic error: probe alias netdev\.close cannot be used here \(its points failed above\): identifier 'netdev' at kernel_tapset_aliases_need_kprobes\.tp:18:7
        source: probe netdev\.close \{ println\(dev_name\) \}
                      \^
semantic error: probe point kernel\.function\("dev_get_stats"\) needs (kprobes or )?BPF trampolines.*: identifier .kernel. at .*networking\.tp:[0-9]+:[0-9]+
        source: probe netdev\.get_stats = kernel\.function\("dev_get_stats"\) \{ dev_name = get_netdev_name\(\$dev\) \}
 +\^
semantic error: probe alias netdev\.get_stats cannot be used here \(its points failed above\): identifier 'netdev' at kernel_tapset_aliases_need_kprobes\.tp:19:7
        source: probe netdev\.get_stats \{ println\(dev_name\) \}
                      \^
semantic error: probe point kernel\.function\("dev_ioctl"\) needs (kprobes or )?BPF trampolines.*: identifier .kernel. at .*networking\.tp:[0-9]+:[0-9]+
        source: probe netdev\.ioctl = kernel\.function\("dev_ioctl"\) \{
 +\^
semantic error: probe alias netdev\.ioctl cannot be used here \(its points failed above\): identifier 'netdev' at kernel_tapset_aliases_need_kprobes\.tp:20:7
        source: probe netdev\.ioctl \{ println\(cmd\) \}
                      \^
semantic error: probe point kernel\.function\("dev_open"\) needs (kprobes or )?BPF trampolines.*: identifier .kernel. at .*networking\.tp:[0-9]+:[0-9]+
        source: probe netdev\.open = kernel\.function\("dev_open"\) \{ dev_name = get_netdev_name\(\$dev\) \}
 +\^
semantic error: probe alias netdev\.open cannot be used here \(its points failed above\): identifier 'netdev' at kernel_tapset_aliases_need_kprobes\.tp:21:7
        source: probe netdev\.open \{ println\(dev_name\) \}
                      \^
semantic error: probe point kernel\.function\("dev_set_promiscuity"\) needs (kprobes or )?BPF trampolines.*: identifier .kernel. at .*networking\.tp:[0-9]+:[0-9]+
        source: probe netdev\.set_promiscuity = kernel\.function\("dev_set_promiscuity"\) \{
 +\^
semantic error: probe alias netdev\.set_promiscuity cannot be used here \(its points failed above\): identifier 'netdev' at kernel_tapset_aliases_need_kprobes\.tp:22:7
        source: probe netdev\.set_promiscuity \{ println\(dev_name\) \}
                      \^
semantic error: probe point kernel\.function\("unregister_netdev"\) needs (kprobes or )?BPF trampolines.*: identifier .kernel. at .*networking\.tp:[0-9]+:[0-9]+
        source: probe netdev\.unregister = kernel\.function\("unregister_netdev"\) \{ dev_name = get_netdev_name\(\$dev\) \}
 +\^
semantic error: probe alias netdev\.unregister cannot be used here \(its points failed above\): identifier 'netdev' at kernel_tapset_aliases_need_kprobes\.tp:23:7
        source: probe netdev\.unregister \{ println\(dev_name\) \}
                      \^
semantic error: probe point kernel\.function\("tcp_done"\)\.call needs (kprobes or )?BPF trampolines.*: identifier .kernel. at .*tcpmib\.tp:[0-9]+:[0-9]+
        source: probe tcpmib\.AttemptFails = kernel\.function\("tcp_done"\)\.call \{
 +\^
semantic error: probe alias tcpmib\.AttemptFails cannot be used here \(its points failed above\): identifier 'tcpmib' at kernel_tapset_aliases_need_kprobes\.tp:24:7
        source: probe tcpmib\.AttemptFails \{ println\(op\) \}
                      \^
semantic error: probe point kernel\.function\("tcp_set_state"\)\.call needs (kprobes or )?BPF trampolines.*: identifier .kernel. at .*tcpmib\.tp:[0-9]+:[0-9]+
        source: probe tcpmib\.CurrEstab = kernel\.function\("tcp_set_state"\)\.call \{
 +\^
semantic error: probe alias tcpmib\.CurrEstab cannot be used here \(its points failed above\): identifier 'tcpmib' at kernel_tapset_aliases_need_kprobes\.tp:25:7
        source: probe tcpmib\.CurrEstab \{ println\(op\) \}
                      \^
semantic error: probe point kernel\.function\("tcp_set_state"\)\.call needs (kprobes or )?BPF trampolines.*: identifier .kernel. at .*tcpmib\.tp:[0-9]+:[0-9]+
        source: probe tcpmib\.EstabResets = kernel\.function\("tcp_set_state"\)\.call \{
 +\^
semantic error: probe alias tcpmib\.EstabResets cannot be used here \(its points failed above\): identifier 'tcpmib' at kernel_tapset_aliases_need_kprobes\.tp:26:7
        source: probe tcpmib\.EstabResets \{ println\(op\) \}
                      \^
semantic error: probe point kernel\.function\("__inet_lookup_established"\)\.return needs (kprobes or )?BPF trampolines.*: identifier .kernel. at .*tcpmib\.tp:[0-9]+:[0-9]+
        source: probe tcpmib\.InSegs = kernel\.function\("__inet_lookup_established"\)\.return \{
 +\^
semantic error: probe alias tcpmib\.InSegs cannot be used here \(its points failed above\): identifier 'tcpmib' at kernel_tapset_aliases_need_kprobes\.tp:27:7
        source: probe tcpmib\.InSegs \{ println\(op\) \}
                      \^
semantic error: probe point kernel\.function\("tcp_v4_send_reset"\) needs (kprobes or )?BPF trampolines.*: identifier .kernel. at .*tcpmib\.tp:[0-9]+:[0-9]+
        source: probe __tcpmib\.OutRsts\.tcp_v4_send_reset = kernel\.function\("tcp_v4_send_reset"\) \{
 +\^
semantic error: probe point kernel\.function\("tcp_send_active_reset"\) needs (kprobes or )?BPF trampolines.*: identifier .kernel. at .*tcpmib\.tp:[0-9]+:[0-9]+
        source: probe __tcpmib\.OutRsts\.tcp_send_active_reset = kernel\.function\("tcp_send_active_reset"\) \{
 +\^
semantic error: probe alias tcpmib\.OutRsts cannot be used here \(its points failed above\): identifier 'tcpmib' at kernel_tapset_aliases_need_kprobes\.tp:28:7
        source: probe tcpmib\.OutRsts \{ println\(op\) \}
                      \^
semantic error: probe point kernel\.function\("ip_queue_xmit"\)\.return needs (kprobes or )?BPF trampolines.*: identifier .kernel. at .*tcpmib\.tp:[0-9]+:[0-9]+
        source: probe tcpmib\.OutSegs = kernel\.function\("ip_queue_xmit"\)\.return \{
 +\^
semantic error: probe alias tcpmib\.OutSegs cannot be used here \(its points failed above\): identifier 'tcpmib' at kernel_tapset_aliases_need_kprobes\.tp:29:7
        source: probe tcpmib\.OutSegs \{ println\(op\) \}
                      \^
semantic error: probe point kernel\.function\("tcp_v4_syn_recv_sock"\)\.return needs (kprobes or )?BPF trampolines.*: identifier .kernel. at .*tcpmib\.tp:[0-9]+:[0-9]+
        source: probe tcpmib\.PassiveOpens = kernel\.function\("tcp_v4_syn_recv_sock"\)\.return \{
 +\^
semantic error: probe alias tcpmib\.PassiveOpens cannot be used here \(its points failed above\): identifier 'tcpmib' at kernel_tapset_aliases_need_kprobes\.tp:30:7
        source: probe tcpmib\.PassiveOpens \{ println\(op\) \}
                      \^
semantic error: probe point kernel\.function\("tcp_retransmit_skb"\)\.return needs (kprobes or )?BPF trampolines.*: identifier .kernel. at .*tcpmib\.tp:[0-9]+:[0-9]+
        source: probe tcpmib\.RetransSegs = kernel\.function\("tcp_retransmit_skb"\)\.return \{
 +\^
semantic error: probe alias tcpmib\.RetransSegs cannot be used here \(its points failed above\): identifier 'tcpmib' at kernel_tapset_aliases_need_kprobes\.tp:31:7
        source: probe tcpmib\.RetransSegs \{ println\(op\) \}
                      \^
semantic error: probe alias __tcpmib\.OutRsts\.tcp_send_active_reset cannot be used here \(its points failed above\): identifier '__tcpmib' at kernel_tapset_aliases_need_kprobes\.tp:32:7
        source: probe __tcpmib\.OutRsts\.tcp_send_active_reset \{ println\(op\) \}
                      \^
semantic error: probe alias __tcpmib\.OutRsts\.tcp_v4_send_reset cannot be used here \(its points failed above\): identifier '__tcpmib' at kernel_tapset_aliases_need_kprobes\.tp:33:7
        source: probe __tcpmib\.OutRsts\.tcp_v4_send_reset \{ println\(op\) \}
                      \^
semantic error: probe point kernel\.function\("__sock_sendmsg"\) needs (kprobes or )?BPF trampolines.*: identifier .kernel. at .*socket\.tp:[0-9]+:[0-9]+
        source: probe socket\.sendmsg = kernel\.function\("__sock_sendmsg"\) \{
 +\^
semantic error: probe alias socket\.sendmsg cannot be used here \(its points failed above\): identifier 'socket' at kernel_tapset_aliases_need_kprobes\.tp:34:7
        source: probe socket\.sendmsg \{ println\(size\) \}
                      \^
semantic error: probe point kernel\.function\("sock_recvmsg"\) needs (kprobes or )?BPF trampolines.*: identifier .kernel. at .*socket\.tp:[0-9]+:[0-9]+
        source: probe socket\.recvmsg = kernel\.function\("sock_recvmsg"\) \{
 +\^
semantic error: probe alias socket\.recvmsg cannot be used here \(its points failed above\): identifier 'socket' at kernel_tapset_aliases_need_kprobes\.tp:35:7
        source: probe socket\.recvmsg \{ println\(size\) \}
                      \^
semantic error: probe point kernel\.function\("sock_write_iter"\) needs (kprobes or )?BPF trampolines.*: identifier .kernel. at .*socket\.tp:[0-9]+:[0-9]+
        source: probe socket\.write_iter = kernel\.function\("sock_write_iter"\) \{
 +\^
semantic error: probe alias socket\.write_iter cannot be used here \(its points failed above\): identifier 'socket' at kernel_tapset_aliases_need_kprobes\.tp:36:7
        source: probe socket\.write_iter \{ println\(size\) \}
                      \^
semantic error: probe point kernel\.function\("sock_write_iter"\)\.return needs (kprobes or )?BPF trampolines.*: identifier .kernel. at .*socket\.tp:[0-9]+:[0-9]+
        source: probe socket\.write_iter\.return = kernel\.function\("sock_write_iter"\)\.return \{
 +\^
semantic error: probe alias socket\.write_iter\.return cannot be used here \(its points failed above\): identifier 'socket' at kernel_tapset_aliases_need_kprobes\.tp:37:7
        source: probe socket\.write_iter\.return \{ println\(size\) \}
                      \^
semantic error: probe point kernel\.function\("sock_read_iter"\) needs (kprobes or )?BPF trampolines.*: identifier .kernel. at .*socket\.tp:[0-9]+:[0-9]+
        source: probe socket\.read_iter = kernel\.function\("sock_read_iter"\) \{
 +\^
semantic error: probe alias socket\.read_iter cannot be used here \(its points failed above\): identifier 'socket' at kernel_tapset_aliases_need_kprobes\.tp:38:7
        source: probe socket\.read_iter \{ println\(size\) \}
                      \^
semantic error: probe point kernel\.function\("sock_read_iter"\)\.return needs (kprobes or )?BPF trampolines.*: identifier .kernel. at .*socket\.tp:[0-9]+:[0-9]+
        source: probe socket\.read_iter\.return = kernel\.function\("sock_read_iter"\)\.return \{
 +\^
semantic error: probe alias socket\.read_iter\.return cannot be used here \(its points failed above\): identifier 'socket' at kernel_tapset_aliases_need_kprobes\.tp:39:7
        source: probe socket\.read_iter\.return \{ println\(size\) \}
                      \^
semantic error: probe point kernel\.function\("sock_aio_write"\) needs (kprobes or )?BPF trampolines.*: identifier .kernel. at .*socket\.tp:[0-9]+:[0-9]+
        source: probe socket\.aio_write = kernel\.function\("sock_aio_write"\) \{ name = "socket\.aio_write" \}
 +\^
semantic error: probe alias socket\.aio_write cannot be used here \(its points failed above\): identifier 'socket' at kernel_tapset_aliases_need_kprobes\.tp:40:7
        source: probe socket\.aio_write \{ println\(name\) \}
                      \^
semantic error: probe point kernel\.function\("sock_aio_write"\)\.return needs (kprobes or )?BPF trampolines.*: identifier .kernel. at .*socket\.tp:[0-9]+:[0-9]+
        source: probe socket\.aio_write\.return = kernel\.function\("sock_aio_write"\)\.return \{ name = "socket\.aio_write\.return" \}
 +\^
semantic error: probe alias socket\.aio_write\.return cannot be used here \(its points failed above\): identifier 'socket' at kernel_tapset_aliases_need_kprobes\.tp:41:7
        source: probe socket\.aio_write\.return \{ println\(name\) \}
                      \^
semantic error: probe point kernel\.function\("sock_aio_read"\) needs (kprobes or )?BPF trampolines.*: identifier .kernel. at .*socket\.tp:[0-9]+:[0-9]+
        source: probe socket\.aio_read = kernel\.function\("sock_aio_read"\) \{ name = "socket\.aio_read" \}
 +\^
semantic error: probe alias socket\.aio_read cannot be used here \(its points failed above\): identifier 'socket' at kernel_tapset_aliases_need_kprobes\.tp:42:7
        source: probe socket\.aio_read \{ println\(name\) \}
                      \^
semantic error: probe point kernel\.function\("sock_aio_read"\)\.return needs (kprobes or )?BPF trampolines.*: identifier .kernel. at .*socket\.tp:[0-9]+:[0-9]+
        source: probe socket\.aio_read\.return = kernel\.function\("sock_aio_read"\)\.return \{ name = "socket\.aio_read\.return" \}
 +\^
semantic error: probe alias socket\.aio_read\.return cannot be used here \(its points failed above\): identifier 'socket' at kernel_tapset_aliases_need_kprobes\.tp:43:7
        source: probe socket\.aio_read\.return \{ println\(name\) \}
                      \^
semantic error: probe point kernel\.function\("sock_writev"\) needs (kprobes or )?BPF trampolines.*: identifier .kernel. at .*socket\.tp:[0-9]+:[0-9]+
        source: probe socket\.writev = kernel\.function\("sock_writev"\) \{ name = "socket\.writev" \}
 +\^
semantic error: probe alias socket\.writev cannot be used here \(its points failed above\): identifier 'socket' at kernel_tapset_aliases_need_kprobes\.tp:44:7
        source: probe socket\.writev \{ println\(name\) \}
                      \^
semantic error: probe point kernel\.function\("sock_writev"\)\.return needs (kprobes or )?BPF trampolines.*: identifier .kernel. at .*socket\.tp:[0-9]+:[0-9]+
        source: probe socket\.writev\.return = kernel\.function\("sock_writev"\)\.return \{ name = "socket\.writev\.return" \}
 +\^
semantic error: probe alias socket\.writev\.return cannot be used here \(its points failed above\): identifier 'socket' at kernel_tapset_aliases_need_kprobes\.tp:45:7
        source: probe socket\.writev\.return \{ println\(name\) \}
                      \^
semantic error: probe point kernel\.function\("sock_readv"\) needs (kprobes or )?BPF trampolines.*: identifier .kernel. at .*socket\.tp:[0-9]+:[0-9]+
        source: probe socket\.readv = kernel\.function\("sock_readv"\) \{ name = "socket\.readv" \}
 +\^
semantic error: probe alias socket\.readv cannot be used here \(its points failed above\): identifier 'socket' at kernel_tapset_aliases_need_kprobes\.tp:46:7
        source: probe socket\.readv \{ println\(name\) \}
                      \^
semantic error: probe point kernel\.function\("sock_readv"\)\.return needs (kprobes or )?BPF trampolines.*: identifier .kernel. at .*socket\.tp:[0-9]+:[0-9]+
        source: probe socket\.readv\.return = kernel\.function\("sock_readv"\)\.return \{ name = "socket\.readv\.return" \}
 +\^
semantic error: probe alias socket\.readv\.return cannot be used here \(its points failed above\): identifier 'socket' at kernel_tapset_aliases_need_kprobes\.tp:47:7
        source: probe socket\.readv\.return \{ println\(name\) \}
                      \^
semantic error: probe point kernel\.function\("tcp_setsockopt"\) needs (kprobes or )?BPF trampolines.*: identifier .kernel. at .*tcp\.tp:[0-9]+:[0-9]+
        source: probe tcp\.ipv4\.setsockopt = kernel\.function\("tcp_setsockopt"\) \{
 +\^
semantic error: probe alias tcp\.ipv4\.setsockopt cannot be used here \(its points failed above\): identifier 'tcp' at kernel_tapset_aliases_need_kprobes\.tp:48:7
        source: probe tcp\.ipv4\.setsockopt \{ println\(optstr\) \}
                      \^
semantic error: probe point kernel\.function\("ipv6_setsockopt"\) needs (kprobes or )?BPF trampolines.*: identifier .kernel. at .*tcp\.tp:[0-9]+:[0-9]+
        source: probe tcp\.ipv6\.setsockopt = kernel\.function\("ipv6_setsockopt"\) \{
 +\^
semantic error: probe alias tcp\.ipv6\.setsockopt cannot be used here \(its points failed above\): identifier 'tcp' at kernel_tapset_aliases_need_kprobes\.tp:49:7
        source: probe tcp\.ipv6\.setsockopt \{ println\(optstr\) \}
                      \^
semantic error: probe point kernel\.function\("tcp_setsockopt"\)\.return needs (kprobes or )?BPF trampolines.*: identifier .kernel. at .*tcp\.tp:[0-9]+:[0-9]+
        source: probe tcp\.ipv4\.setsockopt\.return = kernel\.function\("tcp_setsockopt"\)\.return \{
 +\^
semantic error: probe alias tcp\.ipv4\.setsockopt\.return cannot be used here \(its points failed above\): identifier 'tcp' at kernel_tapset_aliases_need_kprobes\.tp:50:7
        source: probe tcp\.ipv4\.setsockopt\.return \{ println\(ret\) \}
                      \^
semantic error: probe point kernel\.function\("ipv6_setsockopt"\)\.return needs (kprobes or )?BPF trampolines.*: identifier .kernel. at .*tcp\.tp:[0-9]+:[0-9]+
        source: probe tcp\.ipv6\.setsockopt\.return = kernel\.function\("ipv6_setsockopt"\)\.return \{
 +\^
semantic error: probe alias tcp\.ipv6\.setsockopt\.return cannot be used here \(its points failed above\): identifier 'tcp' at kernel_tapset_aliases_need_kprobes\.tp:51:7
        source: probe tcp\.ipv6\.setsockopt\.return \{ println\(ret\) \}
                      \^
semantic error: probe point kernel\.function\("wp_page_copy"\) needs (kprobes or )?BPF trampolines.*: identifier .kernel. at .*memory\.tp:[0-9]+:[0-9]+
        source: probe vm\.write_shared_copy = kernel\.function\("wp_page_copy"\) \{
 +\^
semantic error: probe alias vm\.write_shared_copy cannot be used here \(its points failed above\): identifier 'vm' at kernel_tapset_aliases_need_kprobes\.tp:52:7
        source: probe vm\.write_shared_copy \{ println\(zero\) \}
                      \^
semantic error: probe point kernel\.function\("oom_kill_process"\) needs (kprobes or )?BPF trampolines.*: identifier .kernel. at .*memory\.tp:[0-9]+:[0-9]+
        source: probe vm\.oom_kill = kernel\.function\("oom_kill_process"\) \{
 +\^
semantic error: probe alias vm\.oom_kill cannot be used here \(its points failed above\): identifier 'vm' at kernel_tapset_aliases_need_kprobes\.tp:53:7
        source: probe vm\.oom_kill \{ println\(task\) \}
                      \^
