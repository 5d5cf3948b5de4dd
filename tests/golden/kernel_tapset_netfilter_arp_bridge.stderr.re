semantic error: probe point netfilter\.hook\("NF_ARP_OUT"\)\.pf\("NFPROTO_ARP"\): the kernel's BPF netfilter links take NFPROTO_IPV4 and NFPROTO_IPV6 hooks only \(ARP and bridge hooks need SystemTap's kernel module\): identifier 'pf' at .*netfilter\.tp:[0-9]+:[0-9]+
        source: probe netfilter\.arp\.out = netfilter\.hook\("NF_ARP_OUT"\)\.pf\("NFPROTO_ARP"\) \{ \}
                                                                       \^
semantic error: probe alias netfilter\.arp\.out cannot be used here \(its points failed above\): identifier 'netfilter' at kernel_tapset_netfilter_arp_bridge\.tp:3:7
        source: probe netfilter\.arp\.out \{ println\(pf\) \}
                      \^
semantic error: probe point netfilter\.hook\("NF_ARP_FORWARD"\)\.pf\("NFPROTO_ARP"\): the kernel's BPF netfilter links take NFPROTO_IPV4 and NFPROTO_IPV6 hooks only \(ARP and bridge hooks need SystemTap's kernel module\): identifier 'pf' at .*netfilter\.tp:[0-9]+:[0-9]+
        source: probe netfilter\.arp\.forward = netfilter\.hook\("NF_ARP_FORWARD"\)\.pf\("NFPROTO_ARP"\) \{ \}
                                                                               \^
semantic error: probe alias netfilter\.arp\.forward cannot be used here \(its points failed above\): identifier 'netfilter' at kernel_tapset_netfilter_arp_bridge\.tp:4:7
        source: probe netfilter\.arp\.forward \{ println\(pf\) \}
                      \^
semantic error: probe point netfilter\.hook\("NF_BR_PRE_ROUTING"\)\.pf\("NFPROTO_BRIDGE"\): the kernel's BPF netfilter links take NFPROTO_IPV4 and NFPROTO_IPV6 hooks only \(ARP and bridge hooks need SystemTap's kernel module\): identifier 'pf' at .*netfilter\.tp:[0-9]+:[0-9]+
        source: probe netfilter\.bridge\.pre_routing = netfilter\.hook\("NF_BR_PRE_ROUTING"\)\.pf\("NFPROTO_BRIDGE"\) \{ \}
                                                                                         \^
semantic error: probe alias netfilter\.bridge\.pre_routing cannot be used here \(its points failed above\): identifier 'netfilter' at kernel_tapset_netfilter_arp_bridge\.tp:5:7
        source: probe netfilter\.bridge\.pre_routing \{ println\(pf\) \}
                      \^
semantic error: probe point netfilter\.hook\("NF_BR_LOCAL_IN"\)\.pf\("NFPROTO_BRIDGE"\): the kernel's BPF netfilter links take NFPROTO_IPV4 and NFPROTO_IPV6 hooks only \(ARP and bridge hooks need SystemTap's kernel module\): identifier 'pf' at .*netfilter\.tp:[0-9]+:[0-9]+
        source: probe netfilter\.bridge\.local_in = netfilter\.hook\("NF_BR_LOCAL_IN"\)\.pf\("NFPROTO_BRIDGE"\) \{ \}
                                                                                   \^
semantic error: probe alias netfilter\.bridge\.local_in cannot be used here \(its points failed above\): identifier 'netfilter' at kernel_tapset_netfilter_arp_bridge\.tp:6:7
        source: probe netfilter\.bridge\.local_in \{ println\(pf\) \}
                      \^
semantic error: probe point netfilter\.hook\("NF_BR_FORWARD"\)\.pf\("NFPROTO_BRIDGE"\): the kernel's BPF netfilter links take NFPROTO_IPV4 and NFPROTO_IPV6 hooks only \(ARP and bridge hooks need SystemTap's kernel module\): identifier 'pf' at .*netfilter\.tp:[0-9]+:[0-9]+
        source: probe netfilter\.bridge\.forward = netfilter\.hook\("NF_BR_FORWARD"\)\.pf\("NFPROTO_BRIDGE"\) \{ \}
                                                                                 \^
semantic error: probe alias netfilter\.bridge\.forward cannot be used here \(its points failed above\): identifier 'netfilter' at kernel_tapset_netfilter_arp_bridge\.tp:7:7
        source: probe netfilter\.bridge\.forward \{ println\(pf\) \}
                      \^
semantic error: probe point netfilter\.hook\("NF_BR_LOCAL_OUT"\)\.pf\("NFPROTO_BRIDGE"\): the kernel's BPF netfilter links take NFPROTO_IPV4 and NFPROTO_IPV6 hooks only \(ARP and bridge hooks need SystemTap's kernel module\): identifier 'pf' at .*netfilter\.tp:[0-9]+:[0-9]+
        source: probe netfilter\.bridge\.local_out = netfilter\.hook\("NF_BR_LOCAL_OUT"\)\.pf\("NFPROTO_BRIDGE"\) \{ \}
                                                                                     \^
semantic error: probe alias netfilter\.bridge\.local_out cannot be used here \(its points failed above\): identifier 'netfilter' at kernel_tapset_netfilter_arp_bridge\.tp:8:7
        source: probe netfilter\.bridge\.local_out \{ println\(pf\) \}
                      \^
semantic error: probe point netfilter\.hook\("NF_BR_POST_ROUTING"\)\.pf\("NFPROTO_BRIDGE"\): the kernel's BPF netfilter links take NFPROTO_IPV4 and NFPROTO_IPV6 hooks only \(ARP and bridge hooks need SystemTap's kernel module\): identifier 'pf' at .*netfilter\.tp:[0-9]+:[0-9]+
        source: probe netfilter\.bridge\.post_routing = netfilter\.hook\("NF_BR_POST_ROUTING"\)\.pf\("NFPROTO_BRIDGE"\) \{ \}
                                                                                           \^
semantic error: probe alias netfilter\.bridge\.post_routing cannot be used here \(its points failed above\): identifier 'netfilter' at kernel_tapset_netfilter_arp_bridge\.tp:9:7
        source: probe netfilter\.bridge\.post_routing \{ println\(pf\) \}
                      \^
