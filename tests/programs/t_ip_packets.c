/* IPv4 packets for the ipmib.* goldens, on 127.0.0.1 (run it in a network
 * namespace whose lo has MTU 1500 and net.ipv4.ipfrag_time 1), in order:
 * a UDP datagram of 4000 bytes to a bound socket, fragmented in 3 and
 * reassembled; a raw packet of protocol 253, which no one receives (the
 * kernel answers ICMP protocol unreachable); the first fragment (MF set)
 * of a datagram of protocol 254 whose rest never comes (after a second the
 * kernel drops it and answers ICMP time exceeded, where lo has
 * route_localnet and accept_local: 127.0.0.1 is a local source). */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/ip.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static void check(int ok, const char *what)
{
    if (!ok) {
        perror(what);
        exit(1);
    }
}

static void fragmented_udp(void)
{
    static char buf[4000];
    struct sockaddr_in addr = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    socklen_t len = sizeof addr;
    int receiver = socket(AF_INET, SOCK_DGRAM, 0);
    check(receiver >= 0 && bind(receiver, (struct sockaddr *)&addr, len) == 0, "bind");
    check(getsockname(receiver, (struct sockaddr *)&addr, &len) == 0, "getsockname");
    int sender = socket(AF_INET, SOCK_DGRAM, 0);
    check(sender >= 0 && sendto(sender, buf, sizeof buf, 0, (struct sockaddr *)&addr, len) == sizeof buf, "sendto");
    check(recv(receiver, buf, sizeof buf, 0) == sizeof buf, "recv");
    close(sender);
    close(receiver);
}

/* a 20-byte IP header and 16 bytes of payload, sent as it is */
static void raw_packet(int protocol, int more_fragments)
{
    unsigned char packet[36] = {0};
    struct iphdr *ip = (struct iphdr *)packet;
    ip->version = 4;
    ip->ihl = 5;
    ip->tot_len = htons(sizeof packet);
    ip->id = htons(0x4242);
    ip->frag_off = htons(more_fragments ? IP_MF : 0);
    ip->ttl = 64;
    ip->protocol = (unsigned char)protocol;
    ip->saddr = ip->daddr = htonl(INADDR_LOOPBACK);
    int fd = socket(AF_INET, SOCK_RAW, IPPROTO_RAW);
    struct sockaddr_in addr = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    check(fd >= 0 && sendto(fd, packet, sizeof packet, 0, (struct sockaddr *)&addr, sizeof addr) == sizeof packet,
          "raw sendto");
    close(fd);
}

int main(void)
{
    fragmented_udp();
    raw_packet(253, 0);
    raw_packet(254, 1);
    sleep(3);
    return 0;
}
