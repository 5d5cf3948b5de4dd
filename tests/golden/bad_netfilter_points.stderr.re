semantic error: probe point netfilter\.hook\("NF_ARP_IN"\)\.pf\("NFPROTO_ARP"\): the kernel's BPF netfilter links take NFPROTO_IPV4 and NFPROTO_IPV6 hooks only \(ARP and bridge hooks need SystemTap's kernel module\): identifier 'pf' at .*netfilter\.tp:[0-9]+:[0-9]+
        source: probe netfilter\.arp\.in = netfilter\.hook\("NF_ARP_IN"\)\.pf\("NFPROTO_ARP"\) \{ \}
                                                                     \^
semantic error: probe alias netfilter\.arp\.in cannot be used here \(its points failed above\): identifier 'netfilter' at bad_netfilter_points\.tp:4:7
        source: probe netfilter\.arp\.in \{ \}
                      \^
semantic error: while resolving probe point: unknown netfilter hook \(NF_INET_PRE_ROUTING \.\.\. NF_INET_POST_ROUTING and the NF_IP_, NF_IP6_, NF_ARP_, NF_BR_ names\): netfilter\.hook\("NF_INET_INPUT"\)\.pf\("NFPROTO_IPV4"\): identifier 'hook' at bad_netfilter_points\.tp:5:17
        source: probe netfilter\.hook\("NF_INET_INPUT"\)\.pf\("NFPROTO_IPV4"\) \{ \}
                                \^
semantic error: probe point netfilter\.pf\("NFPROTO_IPV4"\)\.hook\("NF_INET_LOCAL_IN"\)\.priority\("NF_IP_PRI_FIRST"\): the kernel's BPF netfilter links take the five NF_INET hooks, at a priority between NF_IP_PRI_FIRST and NF_IP_PRI_LAST \(excluded\): identifier 'priority' at bad_netfilter_points\.tp:6:61
        source: probe netfilter\.pf\("NFPROTO_IPV4"\)\.hook\("NF_INET_LOCAL_IN"\)\.priority\("NF_IP_PRI_FIRST"\) \{ \}
                                                                            \^
semantic error: while resolving probe point: a netfilter probe names its hook and protocol family, as in netfilter\.hook\("NF_INET_LOCAL_IN"\)\.pf\("NFPROTO_IPV4"\): identifier 'netfilter' at bad_netfilter_points\.tp:7:7
        source: probe netfilter\.hook\("NF_INET_LOCAL_IN"\) \{ \}
                      \^
