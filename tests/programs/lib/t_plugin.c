/* Loaded by t_dlopen with dlopen() (stack_dlopen_* golden tests): two frames
 * between the program's main() and its report() callback. */
__attribute__((noinline)) long plugin_step(long (*callback)(long), long x)
{
    return callback(x + 1) + 1;
}

__attribute__((noinline)) long plugin_run(long (*callback)(long), long x)
{
    return plugin_step(callback, x + 1) + 1;
}
