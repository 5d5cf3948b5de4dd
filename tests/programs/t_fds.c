/* Descriptors of pseudo filesystems for the tapset_dentry_* goldens: a
 * pipe (3, 4), a socket pair (5, 6), an eventfd (7, an anonymous inode), the
 * network namespace (8, nsfs) and a memfd (9, an unlinked tmpfs file), then
 * close(1000) (EBADF) as the mark the scripts probe. Descriptors inherited
 * past stderr (ctest leaves some open) are closed first. */
#include <fcntl.h>
#include <stdio.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

int main(void)
{
    int p[2], s[2];
    close_range(3, ~0U, 0);
    if (pipe(p) != 0 || p[0] != 3 || socketpair(AF_UNIX, SOCK_STREAM, 0, s) != 0 || eventfd(0, 0) != 7 ||
        open("/proc/self/ns/net", O_RDONLY) != 8 || memfd_create("tap", 0) != 9) {
        perror("t_fds: descriptors 3 to 9");
        return 1;
    }
    close(1000);
    return 0;
}
