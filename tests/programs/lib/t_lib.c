/* A shared library for the uprobe_lib_* golden tests (-g -O0). */
int lib_calls;

int lib_mul(int a, int b)
{
    lib_calls++;
    return a * b;
}
