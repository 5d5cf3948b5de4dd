/* __tap_errno_name(e): the name of errno e (ENOENT for 2) from a .rodata
 * table, "" when e has none. errno_str() in tapsets/tap_format.tp is built on
 * it: a table row is one helper call, where a chain of ifs cost the verifier
 * ~1,400 instructions in every return probe that prints a return value. */
#include <string.h>

#include <linux/bpf.h>

#include "codegen/codegen_internal.h"

/* Rows 1..131: Linux's errnos on x86-64 (SystemTap's table; 41 and 58 have
 * no name of their own), rows 132..136: the kernel's restart codes 512..516. */
static const char *const errno_names[] = {
    "", "EPERM", "ENOENT", "ESRCH", "EINTR", "EIO", "ENXIO", "E2BIG", "ENOEXEC", "EBADF", "ECHILD", "EAGAIN",
    "ENOMEM", "EACCES", "EFAULT", "ENOTBLK", "EBUSY", "EEXIST", "EXDEV", "ENODEV", "ENOTDIR", "EISDIR",
    "EINVAL", "ENFILE", "EMFILE", "ENOTTY", "ETXTBSY", "EFBIG", "ENOSPC", "ESPIPE", "EROFS", "EMLINK",
    "EPIPE", "EDOM", "ERANGE", "EDEADLK", "ENAMETOOLONG", "ENOLCK", "ENOSYS", "ENOTEMPTY", "ELOOP", "",
    "ENOMSG", "EIDRM", "ECHRNG", "EL2NSYNC", "EL3HLT", "EL3RST", "ELNRNG", "EUNATCH", "ENOCSI", "EL2HLT",
    "EBADE", "EBADR", "EXFULL", "ENOANO", "EBADRQC", "EBADSLT", "", "EBFONT", "ENOSTR", "ENODATA", "ETIME",
    "ENOSR", "ENONET", "ENOPKG", "EREMOTE", "ENOLINK", "EADV", "ESRMNT", "ECOMM", "EPROTO", "EMULTIHOP",
    "EDOTDOT", "EBADMSG", "EOVERFLOW", "ENOTUNIQ", "EBADFD", "EREMCHG", "ELIBACC", "ELIBBAD", "ELIBSCN",
    "ELIBMAX", "ELIBEXEC", "EILSEQ", "ERESTART", "ESTRPIPE", "EUSERS", "ENOTSOCK", "EDESTADDRREQ", "EMSGSIZE",
    "EPROTOTYPE", "ENOPROTOOPT", "EPROTONOSUPPORT", "ESOCKTNOSUPPORT", "EOPNOTSUPP", "EPFNOSUPPORT",
    "EAFNOSUPPORT", "EADDRINUSE", "EADDRNOTAVAIL", "ENETDOWN", "ENETUNREACH", "ENETRESET", "ECONNABORTED",
    "ECONNRESET", "ENOBUFS", "EISCONN", "ENOTCONN", "ESHUTDOWN", "ETOOMANYREFS", "ETIMEDOUT", "ECONNREFUSED",
    "EHOSTDOWN", "EHOSTUNREACH", "EALREADY", "EINPROGRESS", "ESTALE", "EUCLEAN", "ENOTNAM", "ENAVAIL",
    "EISNAM", "EREMOTEIO", "EDQUOT", "ENOMEDIUM", "EMEDIUMTYPE", "ECANCELED", "ENOKEY", "EKEYEXPIRED",
    "EKEYREVOKED", "EKEYREJECTED", "EOWNERDEAD", "ENOTRECOVERABLE", "ERESTARTSYS", "ERESTARTNOINTR",
    "ERESTARTNOHAND", "", "ERESTART_RESTARTBLOCK",
};

enum { ERRNO_ROWS = sizeof(errno_names) / sizeof(errno_names[0]), ERRNO_WIDTH = 24,
       ERRNO_LAST_LINUX = 131, ERRNO_RESTART_FIRST = 512, ERRNO_RESTART_ROW = ERRNO_LAST_LINUX + 1 };

/* The table as one .rodata block of ERRNO_WIDTH-byte rows, NUL-padded. */
static LLVMValueRef errno_table(struct codegen *cg)
{
    LLVMValueRef table = LLVMGetNamedGlobal(cg->module, "errno_names");
    if (table)
        return table;
    char bytes[ERRNO_ROWS * ERRNO_WIDTH];
    memset(bytes, 0, sizeof(bytes));
    for (int i = 0; i < ERRNO_ROWS; i++)
        memcpy(bytes + i * ERRNO_WIDTH, errno_names[i], strlen(errno_names[i]));
    LLVMValueRef init = LLVMConstStringInContext(cg->context, bytes, sizeof(bytes), 1);
    table = LLVMAddGlobal(cg->module, LLVMTypeOf(init), "errno_names");
    LLVMSetInitializer(table, init);
    LLVMSetGlobalConstant(table, 1);
    LLVMSetLinkage(table, LLVMPrivateLinkage);
    LLVMSetSection(table, ".rodata");
    return table;
}

/* e's row: e itself for 1..131, 132.. for 512..516, 0 (the empty row) else. */
static LLVMValueRef errno_row(struct codegen *cg, LLVMValueRef e)
{
    LLVMValueRef linux_index = cg_sub(cg, e, cg_const(cg, 1));
    LLVMValueRef is_linux = cg_compare(cg, LLVMIntULT, linux_index, ERRNO_LAST_LINUX);
    LLVMValueRef restart_index = cg_sub(cg, e, cg_const(cg, ERRNO_RESTART_FIRST));
    LLVMValueRef is_restart = cg_compare(cg, LLVMIntULT, restart_index, ERRNO_ROWS - ERRNO_RESTART_ROW);
    LLVMValueRef restart_row = cg_add(cg, restart_index, cg_const(cg, ERRNO_RESTART_ROW));
    LLVMValueRef row = cg_select(cg, is_restart, restart_row, cg_const(cg, 0));
    return cg_select(cg, is_linux, e, row);
}

LLVMValueRef cg_errno_name(struct codegen *cg, LLVMValueRef e)
{
    /* The row's bounds come from compares on other registers (e - 1, e - 512):
     * kernels before scalar-id tracking (6.1) see an unbounded offset into
     * .rodata and refuse the program, so the row is clamped where they see it. */
    LLVMValueRef row = cg_opaque_clamp(cg, errno_row(cg, e), ERRNO_ROWS - 1);
    LLVMValueRef offset = cg_mul(cg, row, cg_const(cg, ERRNO_WIDTH));
    LLVMValueRef slot = cg_scratch_ptr(cg, cg_alloc_string_slot(cg));
    /* Copied by bpf_probe_read_kernel_str: a row picked at run time is a
     * kernel address to it, no bounds for the verifier to follow. */
    cg_string_copy(cg, slot, cg_byte_ptr(cg, errno_table(cg), offset));
    return slot;
}
