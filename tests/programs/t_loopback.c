/* Traffic for the tcp.*, udp.*, socket.* and vfs.* tapset goldens, each
 * argument one part, in order: "tcp", a TCP connection on 127.0.0.1 carrying
 * 1234 bytes each way, the client then disconnected (a reset); "tcp6", the
 * same on [::1]; "udp", a datagram of 321 bytes from a connected socket
 * to a bound one on 127.0.0.1, then the sender disconnected; "udp6", one of
 * 123 bytes to [::1]:9 (sent, not received); "file=PATH", 4321 bytes written
 * to PATH, read back with pread and read, PATH removed; "filev=PATH", 1234
 * bytes written to PATH with writev (1000 + 234), read back with readv (34 +
 * 1200), PATH removed; "sockio", TCP_NODELAY set on a client socket connected
 * on 127.0.0.1, which writes 100 bytes with write and 100 with writev (60 +
 * 40) that the server reads with read and readv (30 + 70), then IPV6_V6ONLY set
 * on an unbound TCP socket of AF_INET6. Sizes are what the scripts match on. */
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

static void check(int ok, const char *what)
{
    if (!ok) {
        perror(what);
        exit(1);
    }
}

/* A socket of `type` bound to the loopback address of `family` (127.0.0.1
 * or ::1) on a port the kernel picks; *addr becomes that address. */
static int bound_socket(int family, int type, struct sockaddr_storage *addr, socklen_t *len)
{
    int fd = socket(family, type, 0);
    check(fd >= 0, "socket");
    memset(addr, 0, sizeof *addr);
    if (family == AF_INET6) {
        struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)addr;
        in6->sin6_family = AF_INET6;
        in6->sin6_addr = in6addr_loopback;
        *len = sizeof *in6;
    } else {
        struct sockaddr_in *in = (struct sockaddr_in *)addr;
        in->sin_family = AF_INET;
        in->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        *len = sizeof *in;
    }
    check(bind(fd, (struct sockaddr *)addr, *len) == 0, "bind");
    check(getsockname(fd, (struct sockaddr *)addr, len) == 0, "getsockname");
    return fd;
}

static void read_all(int fd, char *buf, size_t n)
{
    for (size_t got = 0; got < n;) {
        ssize_t r = recv(fd, buf + got, n - got, 0);
        check(r > 0, "recv");
        got += (size_t)r;
    }
}

static void tcp_round_trip(int family)
{
    static char buf[1234];
    struct sockaddr_storage addr;
    socklen_t len;
    int listener = bound_socket(family, SOCK_STREAM, &addr, &len);
    check(listen(listener, 1) == 0, "listen");
    int client = socket(family, SOCK_STREAM, 0);
    check(client >= 0 && connect(client, (struct sockaddr *)&addr, len) == 0, "connect");
    int server = accept(listener, NULL, NULL);
    check(server >= 0, "accept");
    check(send(client, buf, sizeof buf, 0) == sizeof buf, "send");
    read_all(server, buf, sizeof buf);
    check(send(server, buf, sizeof buf, 0) == sizeof buf, "send");
    read_all(client, buf, sizeof buf);
    struct sockaddr unspec = {.sa_family = AF_UNSPEC};
    check(connect(client, &unspec, sizeof unspec) == 0, "disconnect");
    close(client);
    close(server);
    close(listener);
}

static void udp_round_trip(void)
{
    static char buf[321];
    struct sockaddr_storage addr;
    socklen_t len;
    int receiver = bound_socket(AF_INET, SOCK_DGRAM, &addr, &len);
    int sender = socket(AF_INET, SOCK_DGRAM, 0);
    check(sender >= 0 && connect(sender, (struct sockaddr *)&addr, len) == 0, "connect");
    check(send(sender, buf, sizeof buf, 0) == sizeof buf, "send");
    check(recv(receiver, buf, sizeof buf, 0) == sizeof buf, "recv");
    struct sockaddr unspec = {.sa_family = AF_UNSPEC};
    check(connect(sender, &unspec, sizeof unspec) == 0, "disconnect");
    close(sender);
    close(receiver);
}

static void file_round_trip(const char *path)
{
    static char buf[4321];
    int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
    check(fd >= 0, "open");
    check(write(fd, buf, sizeof buf) == sizeof buf, "write");
    check(pread(fd, buf, sizeof buf, 0) == sizeof buf, "pread");
    check(lseek(fd, 0, SEEK_SET) == 0 && read(fd, buf, sizeof buf) == sizeof buf, "read");
    close(fd);
    unlink(path);
}

static void filev_round_trip(const char *path)
{
    static char buf[1234];
    int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
    check(fd >= 0, "open");
    struct iovec out[2] = {{buf, 1000}, {buf + 1000, 234}}, in[2] = {{buf, 34}, {buf + 34, 1200}};
    check(writev(fd, out, 2) == sizeof buf, "writev");
    check(lseek(fd, 0, SEEK_SET) == 0 && readv(fd, in, 2) == sizeof buf, "readv");
    close(fd);
    unlink(path);
}

static void udp6_send(void)
{
    static char buf[123];
    struct sockaddr_in6 addr = {.sin6_family = AF_INET6, .sin6_port = htons(9), .sin6_addr = IN6ADDR_LOOPBACK_INIT};
    int fd = socket(AF_INET6, SOCK_DGRAM, 0);
    check(fd >= 0 && connect(fd, (struct sockaddr *)&addr, sizeof addr) == 0, "connect");
    check(send(fd, buf, sizeof buf, 0) == sizeof buf, "send");
    close(fd);
}

/* One read or readv of n bytes: on loopback a write's bytes are all queued
 * at the receiver before the write returns. */
static void read_exactly(int fd, struct iovec *iov, int count, size_t n)
{
    ssize_t got = count == 1 ? read(fd, iov[0].iov_base, iov[0].iov_len) : readv(fd, iov, count);
    check(got == (ssize_t)n, "read");
}

static void socket_io(void)
{
    static char buf[100];
    struct sockaddr_storage addr;
    socklen_t len;
    int listener = bound_socket(AF_INET, SOCK_STREAM, &addr, &len);
    check(listen(listener, 1) == 0, "listen");
    int client = socket(AF_INET, SOCK_STREAM, 0), one = 1;
    check(client >= 0 && setsockopt(client, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one) == 0, "TCP_NODELAY");
    check(connect(client, (struct sockaddr *)&addr, len) == 0, "connect");
    int server = accept(listener, NULL, NULL);
    check(server >= 0, "accept");
    check(write(client, buf, sizeof buf) == sizeof buf, "write");
    struct iovec whole = {buf, sizeof buf};
    read_exactly(server, &whole, 1, sizeof buf);
    struct iovec out[2] = {{buf, 60}, {buf + 60, 40}}, in[2] = {{buf, 30}, {buf + 30, 70}};
    check(writev(client, out, 2) == sizeof buf, "writev");
    read_exactly(server, in, 2, sizeof buf);
    close(client);
    close(server);
    close(listener);
    int v6 = socket(AF_INET6, SOCK_STREAM, 0);
    check(v6 >= 0 && setsockopt(v6, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof one) == 0, "IPV6_V6ONLY");
    close(v6);
}

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "tcp") == 0)
            tcp_round_trip(AF_INET);
        else if (strcmp(argv[i], "tcp6") == 0)
            tcp_round_trip(AF_INET6);
        else if (strcmp(argv[i], "udp") == 0)
            udp_round_trip();
        else if (strcmp(argv[i], "sockio") == 0)
            socket_io();
        else if (strcmp(argv[i], "udp6") == 0)
            udp6_send();
        else if (strncmp(argv[i], "filev=", 6) == 0)
            filev_round_trip(argv[i] + 6);
        else if (strncmp(argv[i], "file=", 5) == 0)
            file_round_trip(argv[i] + 5);
        else
            check(0, argv[i]);
    }
    return 0;
}
