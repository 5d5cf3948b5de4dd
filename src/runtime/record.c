/* Decoding a printf record: each argument sits at the offset codegen chose
 * (program.h); strings are NUL-terminated within their slot, but a record
 * is never trusted to contain the NUL; %m/%M bytes come with their count. */
#include <string.h>

#include "base/format.h"
#include "runtime/session.h"

int record_decode(const struct program_format *format, const void *record, size_t size,
                  struct format_value *values)
{
    const char *bytes = record;

    for (int i = 0; i < format->arg_count; i++) {
        const struct format_arg *arg = &format->args[i];
        struct format_value *v = &values[i];

        memset(v, 0, sizeof(*v));
        if (arg->kind == FORMAT_ARG_LONG) {
            if ((size_t)arg->offset + sizeof(int64_t) > size)
                return -1;
            memcpy(&v->number, bytes + arg->offset, sizeof(int64_t));
        } else if (arg->kind == FORMAT_ARG_MEMORY) {
            int64_t count;
            if ((size_t)arg->offset + arg->size > size || arg->size < sizeof(count))
                return -1;
            memcpy(&count, bytes + arg->offset, sizeof(count));
            v->string = bytes + arg->offset + sizeof(count);
            v->string_len = count < 0 ? 0 : (size_t)count < arg->size - sizeof(count) ? (size_t)count
                                                                                    : arg->size - sizeof(count);
        } else {
            if (arg->offset > size)
                return -1;
            size_t room = size - arg->offset;
            if (room > arg->size)
                room = arg->size;
            v->string = bytes + arg->offset;
            v->string_len = strnlen(v->string, room);
        }
    }
    return 0;
}
