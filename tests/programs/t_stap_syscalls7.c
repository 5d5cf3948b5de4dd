/* The newest syscalls SystemTap names (the golden syscall_stap_vars_7):
 * file_getattr and file_setattr (Linux 6.17), lsm_get_self_attr and
 * lsm_set_self_attr (6.8), made with syscall(2) with flags the kernel
 * refuses (EINVAL) before it looks at anything else. The names and structs
 * are on the page at 0x10000000 (fixed_page.h); one dfd is an address on
 * it, which SystemTap's dfd_str_unquoted reads as a string. */
#include <fcntl.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "fixed_page.h"

/* x86_64's numbers: glibc 2.36's headers do not have them */
#define NR_lsm_get_self_attr 459
#define NR_lsm_set_self_attr 460
#define NR_file_getattr 468
#define NR_file_setattr 469
#define BAD_AT_FLAGS 0x80000000u   /* not AT_SYMLINK_NOFOLLOW nor AT_EMPTY_PATH */
#define LSM_ATTR_CURRENT 100       /* linux/lsm.h */

int main(void)
{
    syscall(SYS_close_range, 3, ~0U, 0);   /* fds from 3 on, whatever the runner left open */
    char *p = map_fixed_page();
    if (!p)
        return 1;
    char *file = strcpy(p + 0x200, "/tap-no-such-file");
    char *dfd_string = strcpy(p + 0x280, "a dfd that is an address");
    char *fattr = memset(p + 0x300, 0, 24);   /* struct file_attr: FILE_ATTR_SIZE_VER0 */
    syscall(NR_file_getattr, AT_FDCWD, file, fattr, 24, BAD_AT_FLAGS);
    syscall(NR_file_getattr, 7, NULL, NULL, 4096, BAD_AT_FLAGS);
    syscall(NR_file_setattr, (int)(long)dfd_string, file, fattr, 24, BAD_AT_FLAGS);
    syscall(NR_file_setattr, -1, (char *)1, p + 0x1ff8, 24, BAD_AT_FLAGS);
    /* flags other than LSM_FLAG_SINGLE (get) and any flags (set): EINVAL */
    unsigned *size = (unsigned *)(p + 0x400);
    *size = 0x100;
    syscall(NR_lsm_get_self_attr, LSM_ATTR_CURRENT, p + 0x500, size, 6);
    syscall(NR_lsm_get_self_attr, LSM_ATTR_CURRENT, NULL, NULL, 6);
    syscall(NR_lsm_set_self_attr, LSM_ATTR_CURRENT, p + 0x500, 0x40, 6);
    return 0;
}
